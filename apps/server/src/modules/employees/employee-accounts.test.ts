import { describe, expect, it } from 'vitest';
import { accountCandidates, normaliseAccount } from './employee-accounts';

describe('account candidates', () => {
  it('looks a Windows user name up with its domain first, then bare', () => {
    expect(accountCandidates('JDoe', 'CORP')).toEqual(['corp\\jdoe', 'jdoe']);
    expect(accountCandidates('jdoe', 'corp.example')).toEqual(['corp.example\\jdoe', 'jdoe@corp.example', 'jdoe']);
  });

  it('reads a name that carries its domain or is a UPN', () => {
    expect(accountCandidates('CORP\\JDoe', null)).toEqual(['corp\\jdoe', 'jdoe']);
    expect(accountCandidates('JDoe@Corp.Example', 'CORP')).toEqual(['jdoe@corp.example', 'jdoe']);
  });

  it('takes a bare name alone when no domain is given, and nothing from blanks', () => {
    expect(accountCandidates(' jdoe ', null)).toEqual(['jdoe']);
    expect(accountCandidates('jdoe', '-')).toEqual(['jdoe']);
    expect(accountCandidates('  ', 'CORP')).toEqual([]);
    expect(normaliseAccount(' CORP\\JDoe ')).toBe('corp\\jdoe');
  });
});
