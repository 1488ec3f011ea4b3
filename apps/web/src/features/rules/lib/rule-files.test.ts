import { deflateRawSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readRuleFiles, type PickedFile } from './rule-files';

const limits = { file: 1000, total: 3000 };

function picked(name: string, bytes: Uint8Array | string): PickedFile {
  // A copy: a Node Buffer may be a view into a larger pool.
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : new Uint8Array(bytes);
  return { name, size: data.length, arrayBuffer: async () => data.buffer };
}

/** A tar archive of the given files (ustar headers; a name ending in / is a folder). */
function tar(files: [string, string | Uint8Array][]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [name, content] of files) {
    const body = typeof content === 'string' ? new TextEncoder().encode(content) : content;
    const header = new Uint8Array(512);
    header.set(new TextEncoder().encode(name).subarray(0, 100), 0);
    const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, '0') + '\0';
    header.set(new TextEncoder().encode(octal(0o644, 8)), 100);
    header.set(new TextEncoder().encode(octal(body.length, 12)), 124);
    header[156] = name.endsWith('/') ? '5'.charCodeAt(0) : '0'.charCodeAt(0);
    header.set(new TextEncoder().encode('ustar\0'), 257);
    parts.push(header, body, new Uint8Array((512 - (body.length % 512)) % 512));
  }
  parts.push(new Uint8Array(1024));
  return concat(parts);
}

/** A zip archive of the given files, deflated; `declared` overrides the sizes its directory states. */
function zip(files: [string, string | Uint8Array][], declared?: number): Uint8Array {
  const locals: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const [name, content] of files) {
    const body = typeof content === 'string' ? new TextEncoder().encode(content) : content;
    const packed = deflateRawSync(body);
    const nameBytes = new TextEncoder().encode(name);
    const local = new Uint8Array(30 + nameBytes.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(8, 8, true);
    lv.setUint32(18, packed.length, true);
    lv.setUint32(22, declared ?? body.length, true);
    lv.setUint16(26, nameBytes.length, true);
    local.set(nameBytes, 30);
    const entry = new Uint8Array(46 + nameBytes.length);
    const cv = new DataView(entry.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(10, 8, true);
    cv.setUint32(20, packed.length, true);
    cv.setUint32(24, declared ?? body.length, true);
    cv.setUint16(28, nameBytes.length, true);
    cv.setUint32(42, offset, true);
    entry.set(nameBytes, 46);
    locals.push(local, packed);
    central.push(entry);
    offset += local.length + packed.length;
  }
  const directory = concat(central);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, files.length, true);
  ev.setUint16(10, files.length, true);
  ev.setUint32(12, directory.length, true);
  ev.setUint32(16, offset, true);
  return concat([...locals, directory, end]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const rule = 'alert tcp any any -> any any (msg:"x"; sid:1;)\n';

describe('readRuleFiles', () => {
  it('takes rule files as they are and skips the others, counting them', async () => {
    const read = await readRuleFiles(
      [picked('local.rules', rule), picked('notes.pdf', 'x'), picked('proc.yml', 'title: x\n')],
      limits,
    );
    expect(read).toEqual({
      files: [
        { name: 'local.rules', content: rule },
        { name: 'proc.yml', content: 'title: x\n' },
      ],
      skipped: 1,
      problem: null,
    });
  });

  it('unpacks a .tar.gz: rule files by their path, folders and other files left out', async () => {
    const archive = gzipSync(
      tar([
        ['rules/', ''],
        ['rules/a.yar', 'rule a { condition: true }'],
        ['rules/README.md', '# read me'],
        ['rules/._a.yar', 'resource fork'],
        ['rules/sub/b.yara', 'rule b { condition: false }'],
      ]),
    );
    const read = await readRuleFiles([picked('set.tar.gz', archive)], limits);
    expect(read.problem).toBeNull();
    expect(read.files.map((file) => file.name)).toEqual(['rules/a.yar', 'rules/sub/b.yara']);
    expect(read.files[1]!.content).toBe('rule b { condition: false }');
    expect(read.skipped).toBe(2);
  });

  it('unpacks a .zip with deflated files', async () => {
    const read = await readRuleFiles(
      [
        picked(
          'sigma.zip',
          zip([
            ['windows/proc.yml', 'title: one\n'],
            ['LICENSE', 'DRL'],
          ]),
        ),
      ],
      limits,
    );
    expect(read).toEqual({ files: [{ name: 'windows/proc.yml', content: 'title: one\n' }], skipped: 1, problem: null });
  });

  it('refuses a zip bomb by what it inflates to, whatever its directory declares', async () => {
    const bomb = zip([['bomb.rules', new Uint8Array(200_000)]], 10);
    const read = await readRuleFiles([picked('bomb.zip', bomb)], limits);
    expect(read.problem).toEqual({ kind: 'archiveTooLarge', name: 'bomb.zip' });
    expect(read.files).toEqual([]);
    // A gzip that inflates far beyond the limit is stopped as well.
    const gz = gzipSync(tar([['big.rules', new Uint8Array(100_000)]]));
    expect((await readRuleFiles([picked('big.tar.gz', gz)], limits)).problem).toEqual({
      kind: 'archiveTooLarge',
      name: 'big.tar.gz',
    });
  });

  it('refuses a file over the limit of one file, and files adding up to more than an import takes', async () => {
    const big = 'x'.repeat(1001);
    expect((await readRuleFiles([picked('big.rules', big)], limits)).problem).toEqual({
      kind: 'fileTooLarge',
      name: 'big.rules',
      bytes: 1001,
    });
    const inArchive = await readRuleFiles([picked('a.tar', tar([['in/big.yml', big]]))], limits);
    expect(inArchive.problem).toEqual({ kind: 'fileTooLarge', name: 'in/big.yml', bytes: 1001 });
    const many = ['a', 'b', 'c', 'd'].map((name) => picked(`${name}.rules`, 'y'.repeat(900)));
    expect((await readRuleFiles(many, limits)).problem).toEqual({ kind: 'importTooLarge', bytes: 3600 });
  });

  it('refuses binary files, broken archives and a choice without rule files', async () => {
    expect((await readRuleFiles([picked('x.yar', new Uint8Array([0xff, 0xfe, 0xfd]))], limits)).problem).toEqual({
      kind: 'notText',
      name: 'x.yar',
    });
    expect((await readRuleFiles([picked('x.zip', 'not a zip')], limits)).problem).toEqual({
      kind: 'unreadable',
      name: 'x.zip',
    });
    expect((await readRuleFiles([picked('x.tar.gz', 'not gzip')], limits)).problem).toEqual({
      kind: 'unreadable',
      name: 'x.tar.gz',
    });
    expect(await readRuleFiles([picked('x.pdf', 'x')], limits)).toEqual({
      files: [],
      skipped: 1,
      problem: { kind: 'noRuleFiles' },
    });
  });
});
