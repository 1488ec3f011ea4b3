import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { checkYaraSource, compilerOptions, type YaraExternals } from './yara-compile';
import { metaObject, parseYaraSource, type YaraMetaValue } from './yara-source';

/** One compiled unit: a file's rules under a namespace of their own, so two files may name a rule alike. */
export interface YaraRuleSet {
  namespace: string;
  source: string;
}

export interface YaraScannerOptions {
  /** A scan running longer is stopped (its process killed) and fails with code 'timeout'. */
  timeoutMs?: number;
  /** Data larger than this is refused with code 'too_large' before any scan. */
  maxBytes?: number;
  /** Each pattern reports at most this many matches. */
  maxMatchesPerPattern?: number;
  /** How long compiling the rule sets may take when the scanning process starts. */
  startTimeoutMs?: number;
  /** The caller compiled each set already (buildRuleSet): `open` does not compile them again here. */
  checked?: boolean;
}

export interface YaraStringMatch {
  identifier: string;
  offset: number;
  length: number;
}

export interface YaraScanMatch {
  rule: string;
  namespace: string;
  tags: string[];
  meta: Record<string, YaraMetaValue>;
  strings: YaraStringMatch[];
}

export class YaraScanError extends Error {
  constructor(
    readonly code: 'too_large' | 'timeout' | 'failed' | 'closed',
    message: string,
  ) {
    super(message);
    this.name = 'YaraScanError';
  }
}

/** What is known of the scanned data's file; missing externals are derived or left empty. */
export type YaraScanFile = YaraExternals;

/**
 * The scanning process: a plain Node script, so it runs the same under tsx, vitest or a build.
 * It compiles each rule set once and answers scan requests one at a time over IPC.
 */
const CHILD_SCRIPT = `
const { compile } = require(process.argv[1]);
const sets = [];
process.on('message', (m) => {
  try {
    if (m.type === 'init') {
      for (const s of m.sets) {
        const rules = compile(s.source, m.options);
        rules.setMaxMatchesPerPattern(m.maxMatches);
        sets.push({ namespace: s.namespace, rules });
      }
      process.send({ type: 'ready' });
    } else if (m.type === 'scan') {
      const data = m.path ? null : Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength);
      const out = [];
      for (const s of sets) {
        for (const r of data ? s.rules.scan(data, m.vars) : s.rules.scanFile(m.path, m.vars)) {
          out.push({
            namespace: s.namespace,
            rule: r.ruleIdentifier,
            tags: r.tags,
            strings: r.matches.map((x) => ({ identifier: x.identifier, offset: x.offset, length: x.length })),
          });
        }
      }
      process.send({ type: 'result', id: m.id, matches: out });
    }
  } catch (e) {
    process.send({ type: 'error', id: m.id, message: String((e && e.message) || e) });
  }
});
process.on('disconnect', () => process.exit(0));
`;

type ChildMessage =
  | { type: 'ready' }
  | { type: 'result'; id: number; matches: Omit<YaraScanMatch, 'meta'>[] }
  | { type: 'error'; id?: number; message: string };

/** Data from this size on is handed to the scanning process in a file, not in the message. */
const HAND_OVER_BYTES = 64 * 1024;

/** A short type name from the first bytes, for rules that test `filetype`. */
export function guessFileType(data: Buffer): string {
  if (data.subarray(0, 2).toString('latin1') === 'MZ') return 'EXE';
  if (data.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]))) return 'ELF';
  const magic = data.length >= 4 ? data.readUInt32BE(0) : 0;
  if ([0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe].includes(magic)) return 'MACH-O';
  if (data.subarray(0, 5).toString('latin1') === '{\\rtf') return 'RTF';
  if (data.subarray(0, 4).toString('latin1') === 'MDMP') return 'MDMP';
  return '';
}

/** The external variables a scan of `data` as `file` defines (what is not known is derived or empty). */
export function externalsFor(data: Buffer, file: YaraScanFile): Record<string, string> {
  const filepath = file.filepath ?? '';
  const filename = file.filename ?? (filepath ? path.basename(filepath) : '');
  return {
    filename,
    filepath,
    extension: file.extension ?? path.extname(filename).toLowerCase(),
    filetype: file.filetype ?? guessFileType(data),
  };
}

/**
 * Scans buffers with compiled YARA rules in a separate process, so a scan that runs too long can
 * be stopped: on timeout the process is killed and the next scan starts a fresh one.
 */
export class YaraScanner {
  private child: ChildProcess | null = null;
  private starting: Promise<ChildProcess> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private closed = false;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxMatches: number;
  private readonly startTimeoutMs: number;
  private readonly meta = new Map<string, Record<string, YaraMetaValue>>();
  /** A folder of this scanner's own where data is handed to the scanning process (made when first needed). */
  private handOver: string | null = null;

  private constructor(
    private readonly sets: readonly YaraRuleSet[],
    options: YaraScannerOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.maxMatches = options.maxMatchesPerPattern ?? 100;
    this.startTimeoutMs = options.startTimeoutMs ?? 60_000;
    for (const set of sets) {
      for (const rule of parseYaraSource(set.source).rules)
        this.meta.set(`${set.namespace}\0${rule.name}`, metaObject(rule));
    }
  }

  /** Checks that every set compiles (throwing the compiler's reason, with the namespace, if one does not) and starts the scanning process. */
  static async open(sets: readonly YaraRuleSet[], options: YaraScannerOptions = {}): Promise<YaraScanner> {
    const namespaces = new Set<string>();
    for (const set of sets) {
      if (namespaces.has(set.namespace)) throw new Error(`the namespace "${set.namespace}" is given twice`);
      namespaces.add(set.namespace);
      if (options.checked === true) continue;
      const check = checkYaraSource(set.source);
      if (!check.ok) throw new Error(`${set.namespace}: ${check.reason}`);
    }
    const scanner = new YaraScanner(sets, options);
    await scanner.ensureChild();
    return scanner;
  }

  /** Scans one buffer; scans run one after another, each with its own timeout. */
  scan(data: Buffer, file: YaraScanFile = {}): Promise<YaraScanMatch[]> {
    if (this.closed) return Promise.reject(new YaraScanError('closed', 'the scanner is closed'));
    if (data.length > this.maxBytes) {
      return Promise.reject(
        new YaraScanError(
          'too_large',
          `the data is ${data.length} bytes, over the scan limit of ${this.maxBytes} bytes`,
        ),
      );
    }
    const run = this.queue.then(() => this.runScan(data, externalsFor(data, file)));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    this.stopChild();
    if (this.handOver) rmSync(this.handOver, { recursive: true, force: true });
    this.handOver = null;
  }

  /**
   * Where the scanning process reads data of this size, or null to send it in the message. Data
   * over the IPC channel is copied into a message and read back in chunks (about 100 MB/s); a
   * file in memory-backed storage is written and read at memory speed. One file serves every
   * scan: scans run one after another.
   */
  private handOverPath(data: Buffer): string | null {
    if (data.length < HAND_OVER_BYTES) return null;
    if (this.handOver === null) {
      const base = process.platform === 'linux' ? '/dev/shm' : os.tmpdir();
      try {
        this.handOver = mkdtempSync(path.join(base, 'vigil-yara-'));
      } catch {
        this.handOver = mkdtempSync(path.join(os.tmpdir(), 'vigil-yara-'));
      }
    }
    const file = path.join(this.handOver, 'data');
    writeFileSync(file, data, { mode: 0o600 });
    return file;
  }

  private stopChild(): void {
    const child = this.child;
    this.child = null;
    this.starting = null;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  private ensureChild(): Promise<ChildProcess> {
    if (this.child) return Promise.resolve(this.child);
    if (this.starting) return this.starting;
    const binding = createRequire(import.meta.url).resolve('@litko/yara-x');
    const child = spawn(process.execPath, ['-e', CHILD_SCRIPT, binding], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    this.starting = new Promise<ChildProcess>((resolve, reject) => {
      let settled = false;
      const settle = () => {
        settled = true;
        clearTimeout(timer);
        child.off('message', onMessage);
      };
      const fail = (error: Error) => {
        if (settled) return;
        settle();
        this.starting = null;
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        reject(error);
      };
      const timer = setTimeout(() => {
        fail(new YaraScanError('timeout', `compiling the rules took longer than ${this.startTimeoutMs} ms`));
      }, this.startTimeoutMs);
      const onMessage = (m: ChildMessage) => {
        if (m.type === 'ready' && !settled) {
          settle();
          this.child = child;
          this.starting = null;
          resolve(child);
        } else if (m.type === 'error') fail(new YaraScanError('failed', `the rules did not load: ${m.message}`));
      };
      child.on('message', onMessage);
      child.once('error', (error) =>
        fail(new YaraScanError('failed', `the scanning process did not start: ${error.message}`)),
      );
      child.once('exit', (code) => {
        // A process that ends after it was ready is replaced at the next scan.
        if (this.child === child) this.child = null;
        fail(new YaraScanError('failed', `the scanning process ended (${code ?? 'killed'}) ${stderr.trim()}`.trim()));
      });
      child.send({ type: 'init', sets: this.sets, options: compilerOptions(), maxMatches: this.maxMatches });
    });
    return this.starting;
  }

  private async runScan(data: Buffer, vars: Record<string, string>): Promise<YaraScanMatch[]> {
    if (this.closed) throw new YaraScanError('closed', 'the scanner is closed');
    const child = await this.ensureChild();
    const id = this.nextId++;
    const answer = await new Promise<Extract<ChildMessage, { type: 'result' }>>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      const timer = setTimeout(() => {
        done();
        // The only way to stop a scan inside the native scanner is to end its process.
        this.stopChild();
        reject(new YaraScanError('timeout', `the scan took longer than ${this.timeoutMs} ms and was stopped`));
      }, this.timeoutMs);
      const onMessage = (m: ChildMessage) => {
        if (m.type === 'result' && m.id === id) {
          done();
          resolve(m);
        } else if (m.type === 'error' && m.id === id) {
          done();
          reject(new YaraScanError('failed', `the scan failed: ${m.message}`));
        }
      };
      const onExit = () => {
        done();
        reject(new YaraScanError('failed', 'the scanning process ended during the scan'));
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      const file = this.handOverPath(data);
      child.send(file === null ? { type: 'scan', id, data, vars } : { type: 'scan', id, path: file, vars });
    });
    return answer.matches.map((m) => ({ ...m, meta: this.meta.get(`${m.namespace}\0${m.rule}`) ?? {} }));
  }
}
