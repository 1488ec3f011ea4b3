import { describe, expect, it } from 'vitest';
import { checkCsvFile, IMPORT_MAX_BYTES } from './csv-file';

describe('checkCsvFile', () => {
  it('takes .csv and .txt files in any letter case', () => {
    expect(checkCsvFile({ name: 'staff.csv', size: 10 })).toBeNull();
    expect(checkCsvFile({ name: 'AD-EXPORT.CSV', size: 10 })).toBeNull();
    expect(checkCsvFile({ name: 'staff.txt', size: 10 })).toBeNull();
  });
  it('refuses other files and files over the server limit', () => {
    expect(checkCsvFile({ name: 'staff.xlsx', size: 10 })).toBe('notCsv');
    expect(checkCsvFile({ name: 'staff.csv', size: IMPORT_MAX_BYTES + 1 })).toBe('tooLarge');
  });
});
