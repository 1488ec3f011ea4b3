import { describe, expect, it } from 'vitest';
import { commonName, readEmployeeCsv } from './employee-csv';

describe('employee CSV', () => {
  it('reads the columns of an Active Directory export in any letter case', async () => {
    const { rows, rejected } = await readEmployeeCsv(
      [
        '#TYPE Microsoft.ActiveDirectory.Management.ADUser',
        'NAME,displayname,samaccountname,USERPRINCIPALNAME,mail,Department,Title,Manager,TelephoneNumber,Mobile,proxyAddresses',
        'jdoe,"Doe, John",JDoe,JDoe@Corp.Example,john.doe@corp.example,IT,Admin,"CN=Boss\\, Big,OU=x,DC=corp",,+1 555,"SMTP:John.Doe@corp.example;smtp:jd@corp.example;SIP:jd@corp.example"',
      ].join('\n'),
    );
    expect(rejected).toEqual([]);
    expect(rows).toEqual([
      {
        line: 3,
        full_name: 'Doe, John',
        emails: ['john.doe@corp.example', 'jd@corp.example'],
        accounts: ['jdoe', 'jdoe@corp.example'],
        department: 'IT',
        title: 'Admin',
        phone: '+1 555',
        manager: 'CN=Boss\\, Big,OU=x,DC=corp',
        unit: '',
        distinguished_name: null,
      },
    ]);
    expect(commonName(rows[0]!.manager)).toBe('Boss, Big');
    expect(commonName('OU=x')).toBeNull();
  });

  it('takes given name and surname when no full name is given, and a later row for the same account wins', async () => {
    const { rows } = await readEmployeeCsv('GivenName,Surname,SamAccountName\nAnna,Lee,alee\nAnn,Lee,ALEE\n');
    expect(rows.map((r) => [r.full_name, r.line])).toEqual([['Ann Lee', 3]]);
  });

  it('refuses a header naming nobody, and bad rows with their line and field', async () => {
    expect((await readEmployeeCsv('colour,size\nred,1\n')).rejected[0]).toMatchObject({ row: 1, field: 'header' });
    expect((await readEmployeeCsv('')).rejected[0]).toMatchObject({ field: 'header' });
    const { rows, rejected } = await readEmployeeCsv(
      'full_name,emails,accounts,title\nOk,,,\n,a@b.example,,\nX,bad,,\nY,,"' +
        'a'.repeat(257) +
        '",\nZ,,,"' +
        'x'.repeat(201) +
        '"\n"never closed,,,\n',
    );
    expect(rows.map((r) => r.full_name)).toEqual(['Ok']);
    expect(rejected.map((r) => [r.row, r.field])).toEqual([
      [3, 'full_name'],
      [4, 'emails'],
      [5, 'accounts'],
      [6, 'title'],
      [7, 'row'],
    ]);
  });
});
