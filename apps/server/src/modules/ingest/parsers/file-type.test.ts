import { describe, expect, it } from 'vitest';
import { detectFileType } from './file-type';
import { fakePe, fakePdf, fakeZip } from './fixtures/files';

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (value: string) => Buffer.from(value, 'latin1');

describe('detectFileType', () => {
  it('knows executables', () => {
    expect(detectFileType(fakePe())).toBe('pe');
    // MZ without a PE header is not taken for an executable (plain text can start with "MZ").
    expect(detectFileType(text('MZ Smith, invoice 2024'.padEnd(80, ' ')))).toBe('unknown');
    expect(detectFileType(bytes(0x7f, 0x45, 0x4c, 0x46, 2, 1, 1))).toBe('elf');
    expect(detectFileType(bytes(0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1))).toBe('mach-o');
  });

  it('knows documents and archives', () => {
    expect(detectFileType(fakePdf())).toBe('pdf');
    expect(detectFileType(Buffer.concat([text('\r\n\r\n'), fakePdf()]))).toBe('pdf');
    expect(detectFileType(fakeZip(['word/document.xml', '[Content_Types].xml']))).toBe('ooxml');
    expect(detectFileType(fakeZip(['readme.txt']))).toBe('zip');
    expect(detectFileType(bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0))).toBe('ole2');
    expect(detectFileType(text('{\\rtf1\\ansi'))).toBe('rtf');
    expect(detectFileType(text('Rar!\x1a\x07\x01\x00'))).toBe('rar');
    expect(detectFileType(bytes(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4))).toBe('7z');
    expect(detectFileType(bytes(0x1f, 0x8b, 8, 0))).toBe('gzip');
    const iso = Buffer.alloc(0x8006);
    iso.write('CD001', 0x8001, 'latin1');
    expect(detectFileType(iso)).toBe('iso');
    expect(detectFileType(bytes(0x4c, 0, 0, 0, 0x01, 0x14, 0x02, 0, 0, 0, 0, 0, 0xc0, 0, 0, 0, 0, 0, 0, 0x46))).toBe(
      'lnk',
    );
  });

  it('knows images', () => {
    expect(detectFileType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('png');
    expect(detectFileType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('jpeg');
    expect(detectFileType(text('GIF89a\x01\x00'))).toBe('gif');
  });

  it('knows scripts by extension or #!, but magic bytes win', () => {
    expect(detectFileType(text('WScript.Echo 1'), 'Invoice.PDF.vbs')).toBe('script');
    expect(detectFileType(text('Write-Host 1'), 'run.ps1')).toBe('script');
    expect(detectFileType(text('#!/bin/sh\ncurl x | sh'), 'install')).toBe('script');
    expect(detectFileType(fakePe(), 'invoice.js')).toBe('pe');
    expect(detectFileType(text('hello'), 'notes.txt')).toBe('unknown');
    expect(detectFileType(new Uint8Array(), null)).toBe('unknown');
  });
});
