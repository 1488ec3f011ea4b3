import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guessFileType, YaraScanError, YaraScanner } from './yara-scanner';

const WEBSHELL = `
rule Test_WebShell : webshell php {
  meta:
    author = "Vigil tests"
    description = "eval of a request parameter"
    score = 70
    strict = true
  strings:
    $eval = "eval($_POST["
    $tag = { 3C 3F 70 68 70 }
  condition:
    $tag at 0 and $eval
}

rule Test_Named_Exe {
  condition:
    filename == "dropper.exe" and extension == ".exe" and filetype == "EXE" and filepath == "C:\\\\Temp\\\\dropper.exe"
}
`;

/** A rule whose condition loops over every pair of bytes: on 20 kB of zeros it runs for seconds. */
const SLOW = `
rule Test_Slow {
  condition:
    for any i in (0..filesize) : ( for any j in (0..filesize) : ( uint8(i) == uint8(j) + 1 ) )
}
`;

describe('YaraScanner', () => {
  let scanner: YaraScanner;
  beforeAll(async () => {
    scanner = await YaraScanner.open(
      [
        { namespace: 'webshells.yar', source: WEBSHELL },
        { namespace: 'other.yar', source: 'rule Test_WebShell { strings: $a = "nothing here" condition: $a }' },
      ],
      { timeoutMs: 5_000, maxBytes: 1024 },
    );
  });
  afterAll(() => scanner.close());

  it('returns the matching rule with its namespace, tags, meta and string offsets', async () => {
    const data = Buffer.from('<?php /* x */ eval($_POST["cmd"]); ?>');
    const matches = await scanner.scan(data);
    expect(matches).toEqual([
      {
        rule: 'Test_WebShell',
        namespace: 'webshells.yar',
        tags: ['webshell', 'php'],
        meta: { author: 'Vigil tests', description: 'eval of a request parameter', score: 70, strict: true },
        strings: [
          { identifier: '$eval', offset: 14, length: 12 },
          { identifier: '$tag', offset: 0, length: 5 },
        ],
      },
    ]);
    expect(data.subarray(14, 26).toString()).toBe('eval($_POST[');
  });

  it('scans large data handed over in a file as it scans data sent in the message', async () => {
    const big = await YaraScanner.open([{ namespace: 'webshells.yar', source: WEBSHELL }], { timeoutMs: 10_000 });
    try {
      const head = Buffer.from('<?php ');
      const body = Buffer.alloc(300 * 1024, 0x20);
      const tail = Buffer.from('eval($_POST["cmd"]); ?>');
      const data = Buffer.concat([head, body, tail]);
      const matches = await big.scan(data, { filename: 'big.php' });
      expect(matches.map((m) => [m.rule, m.strings.map((x) => [x.identifier, x.offset])])).toEqual([
        [
          'Test_WebShell',
          [
            ['$eval', head.length + body.length],
            ['$tag', 0],
          ],
        ],
      ]);
      // Small data next, then large again: each scan reads its own bytes.
      expect(await big.scan(Buffer.from('<?php echo 1; ?>'))).toEqual([]);
      expect(await big.scan(Buffer.concat([head, body]))).toEqual([]);
    } finally {
      await big.close();
    }
  });

  it('matches nothing in data without the patterns', async () => {
    expect(await scanner.scan(Buffer.from('<?php echo "hello"; ?>'))).toEqual([]);
  });

  it('defines filename, filepath, extension and filetype for each scan', async () => {
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64)]);
    const named = await scanner.scan(exe, { filepath: 'C:\\Temp\\dropper.exe', filename: 'dropper.exe' });
    expect(named.map((m) => m.rule)).toEqual(['Test_Named_Exe']);
    // The same bytes under another name do not match.
    expect(await scanner.scan(exe, { filepath: 'C:\\Temp\\other.exe', filename: 'other.exe' })).toEqual([]);
    // Without a file the externals are empty.
    expect(await scanner.scan(exe)).toEqual([]);
  });

  it('refuses data over the size limit before scanning', async () => {
    await expect(scanner.scan(Buffer.alloc(2048))).rejects.toMatchObject({
      code: 'too_large',
      message: 'the data is 2048 bytes, over the scan limit of 1024 bytes',
    });
  });

  it('refuses to open rules that do not compile, naming the file', async () => {
    await expect(YaraScanner.open([{ namespace: 'bad.yar', source: 'rule x { condition: nope }' }])).rejects.toThrow(
      'bad.yar: line 1: unknown identifier `nope`',
    );
  });
});

describe('YaraScanner timeout', () => {
  it('stops a scan that runs over its timeout, then scans again with a fresh process', async () => {
    const scanner = await YaraScanner.open(
      [
        { namespace: 'slow.yar', source: SLOW },
        { namespace: 'quick.yar', source: 'rule Quick { strings: $a = "quick" condition: $a }' },
      ],
      { timeoutMs: 300 },
    );
    try {
      const started = Date.now();
      // No two bytes here differ by one, so the slow rule walks every pair.
      const data = Buffer.concat([Buffer.alloc(20_000), Buffer.from('quick')]);
      const error = await scanner.scan(data).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(YaraScanError);
      expect(error).toMatchObject({ code: 'timeout', message: 'the scan took longer than 300 ms and was stopped' });
      expect(Date.now() - started).toBeLessThan(5_000);
      // The next scan gets a new process with the same rules.
      expect((await scanner.scan(Buffer.from('quick'))).map((m) => [m.namespace, m.rule])).toEqual([
        ['quick.yar', 'Quick'],
      ]);
    } finally {
      await scanner.close();
    }
    await expect(scanner.scan(Buffer.from('quick'))).rejects.toMatchObject({ code: 'closed' });
  });
});

describe('guessFileType', () => {
  it('names executables, ELF, Mach-O, RTF and minidumps from their first bytes', () => {
    expect(guessFileType(Buffer.from('MZ\x90\x00'))).toBe('EXE');
    expect(guessFileType(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2]))).toBe('ELF');
    expect(guessFileType(Buffer.from([0xcf, 0xfa, 0xed, 0xfe]))).toBe('MACH-O');
    expect(guessFileType(Buffer.from('{\\rtf1\\ansi'))).toBe('RTF');
    expect(guessFileType(Buffer.from('MDMP\x93\xa7'))).toBe('MDMP');
    expect(guessFileType(Buffer.from('plain text'))).toBe('');
  });
});
