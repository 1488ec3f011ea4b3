import { describe, expect, it } from 'vitest';
import { attachmentsWithUrl, formatAddress } from './mail-view';

describe('formatAddress', () => {
  it('writes a display name without an address as the header did, and the usual forms', () => {
    expect(formatAddress({ name: 'DeBank', address: null })).toBe('DeBank <>');
    expect(formatAddress({ name: 'Doe, John', address: 'j.doe@corp.example' })).toBe('Doe, John <j.doe@corp.example>');
    expect(formatAddress({ name: null, address: 'a@corp.example' })).toBe('a@corp.example');
  });
});

describe('attachmentsWithUrl', () => {
  it('names the attachments a link was found in', () => {
    const attachments = [
      { filename: 'Invoice.Xls.htm', urls: ['https://collect.example/post.php'] },
      { filename: null, urls: ['https://collect.example/post.php', 'https://other.example/'] },
      { filename: 'scan.pdf', urls: [] },
    ];
    expect(attachmentsWithUrl('https://collect.example/post.php', attachments, '(no name)')).toEqual([
      'Invoice.Xls.htm',
      '(no name)',
    ]);
    expect(attachmentsWithUrl('https://body.example/', attachments, '(no name)')).toEqual([]);
  });
});
