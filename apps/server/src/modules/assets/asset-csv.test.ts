import { describe, expect, it } from 'vitest';
import { readAssetCsv } from './asset-csv';

describe('readAssetCsv', () => {
  it('reads rows in any column order, lists split by ; and a later row of a name winning', () => {
    const { rows, rejected } = readAssetCsv(
      'kind,name,ips,tags\nserver,DB-1,10.0.0.1;10.0.0.2,pci|db\nworkstation,db-1,,\n,"Quoted, name",,\n',
    );
    expect(rejected).toEqual([]);
    expect(rows).toEqual([{ name: 'db-1', kind: 'workstation' }, { name: 'Quoted, name' }]);
  });

  it('reports each bad row with its line and field', () => {
    const { rows, rejected } = readAssetCsv(
      "name,criticality,macs,notes\nok,high,AA-BB-CC-DD-EE-FF,'=1+1\nbad,urgent,,\nmac,,nope,\nwide,,,,extra\n",
    );
    expect(rows).toEqual([{ name: 'ok', criticality: 'high', macs: ['aa:bb:cc:dd:ee:ff'], notes: '=1+1' }]);
    expect(rejected.map((r) => [r.row, r.field])).toEqual([
      [3, 'criticality'],
      [4, 'macs'],
      [5, 'row'],
    ]);
  });

  it('refuses a header without a name or with unknown columns, and an empty file', () => {
    expect(readAssetCsv('host\nx\n').rejected).toMatchObject([{ row: 1, field: 'header' }]);
    expect(readAssetCsv('').rejected).toMatchObject([{ row: 1, field: 'header' }]);
  });
});
