import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { checkFromDiagnostics, compilerOptions, sizeRefusal, type YaraCompileCheck } from './yara-compile';

/**
 * The compiling thread: plain JavaScript, so it runs the same under tsx, vitest or a build. It
 * answers one compile check at a time; diagnostics travel as plain objects.
 */
const THREAD_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const { validate } = require(workerData.binding);
const plain = (d) => ({ code: String(d.code), message: String(d.message), line: d.line ?? undefined, column: d.column ?? undefined });
parentPort.on('message', ({ id, source }) => {
  try {
    const result = validate(source, workerData.options);
    parentPort.postMessage({ id, errors: result.errors.map(plain), warnings: result.warnings.map(plain) });
  } catch (e) {
    parentPort.postMessage({ id, failure: String((e && e.message) || e) });
  }
});
`;

type Answer =
  | { id: number; errors: { code: string; message: string }[]; warnings: { code: string; message: string }[] }
  | { id: number; failure: string };

/**
 * Compile checks of YARA sources on a thread of their own: thousands of rules take tens of seconds
 * to compile, which on the server's thread would stop every request and every ingest batch for as
 * long. Same answers as `checkYaraSource`.
 */
export class YaraCompileThread {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (c: YaraCompileCheck) => void; reject: (e: Error) => void }>();

  constructor() {
    const binding = createRequire(import.meta.url).resolve('@litko/yara-x');
    this.worker = new Worker(THREAD_SCRIPT, { eval: true, workerData: { binding, options: compilerOptions() } });
    this.worker.on('message', (answer: Answer) => {
      const pending = this.waiting.get(answer.id);
      if (!pending) return;
      this.waiting.delete(answer.id);
      if (this.waiting.size === 0) this.worker.unref();
      if ('failure' in answer) pending.reject(new Error(`the YARA compiler failed: ${answer.failure}`));
      else pending.resolve(checkFromDiagnostics(answer));
    });
    const failAll = (error: Error) => {
      for (const pending of this.waiting.values()) pending.reject(error);
      this.waiting.clear();
    };
    this.worker.on('error', failAll);
    this.worker.on('exit', (code) => failAll(new Error(`the YARA compiling thread ended (${code})`)));
    // An idle compiling thread does not keep the process alive.
    this.worker.unref();
  }

  check(source: string): Promise<YaraCompileCheck> {
    const tooLarge = sizeRefusal(Buffer.byteLength(source, 'utf8'));
    if (tooLarge) return Promise.resolve({ ok: false, reason: tooLarge, errors: [], warnings: [] });
    const id = this.nextId++;
    return new Promise<YaraCompileCheck>((resolve, reject) => {
      // Kept alive while a check is waiting, let go when idle.
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, source });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
