import { describe, expect, it } from 'vitest';
import { detectFileType, hasDoubleExtension } from './file-type';
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

describe('detectFileType on pages and images that open in a browser', () => {
  it('knows HTML by its first tags, whatever the name or media type', () => {
    expect(detectFileType(text('<!DOCTYPE html><html><body>x</body></html>'), 'Remittance.Xls.htm')).toBe('html');
    expect(detectFileType(text('\r\n  <script>document.write("x")</script>'), 'invoice.dat')).toBe('html');
    expect(detectFileType(text('<form action="https://a.example/">'), null)).toBe('html');
    expect(detectFileType(text('saved from url=(0014)about:internet\n<html><body>'), 'x')).toBe('html');
    expect(detectFileType(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text('<html>')]))).toBe('html');
    expect(detectFileType(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<html><body>', 'utf16le')]))).toBe(
      'html',
    );
  });

  it('knows SVG by its root element', () => {
    expect(detectFileType(text('<svg xmlns="http://www.w3.org/2000/svg"><a href="https://a.example/"/></svg>'))).toBe(
      'svg',
    );
    expect(detectFileType(text('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBe('svg');
  });

  it('falls back to the name or the media type when the content says nothing', () => {
    expect(detectFileType(text('Dear customer'), 'statement.shtml')).toBe('html');
    expect(detectFileType(text('Dear customer'), 'logo.svg')).toBe('svg');
    expect(detectFileType(text('Dear customer'), null, 'text/html; charset=utf-8')).toBe('html');
    expect(detectFileType(text('Dear customer'), null, 'image/svg+xml')).toBe('svg');
    expect(detectFileType(text('Dear customer'), 'notes.txt', 'text/plain')).toBe('unknown');
    // Magic bytes still win over the name.
    expect(detectFileType(fakePe(), 'invoice.htm')).toBe('pe');
  });
});

describe('hasDoubleExtension', () => {
  it('flags a harmless-looking extension in front of one that runs or opens in a browser', () => {
    for (const name of [
      'Remittance.Xls.htm',
      'Statement_0312.pdf.exe',
      'photo.jpg   .scr',
      'scan.PDF.js',
      'a.docx.lnk',
    ]) {
      expect(hasDoubleExtension(name), name).toBe(true);
    }
    for (const name of [
      'report.pdf',
      'archive.tar.gz',
      'jquery.min.js',
      'v1.2.exe',
      'setup.exe',
      'Invoice.pdf',
      null,
    ]) {
      expect(hasDoubleExtension(name), String(name)).toBe(false);
    }
  });
});
