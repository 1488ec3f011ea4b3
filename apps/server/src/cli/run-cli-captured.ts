import { vi } from 'vitest';
import { runCli } from './main';

/**
 * Runs the command line as a user would, for tests: its exit code, and what it printed (console and
 * both standard streams), a line for each print.
 */
export async function runCliCaptured(args: string[]): Promise<{ code: number; lines: string[]; output: string }> {
  const lines: string[] = [];
  const print = (...parts: unknown[]) => void lines.push(parts.join(' '));
  const write = (chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  };
  const spies = [
    vi.spyOn(console, 'log').mockImplementation(print),
    vi.spyOn(console, 'error').mockImplementation(print),
    vi.spyOn(process.stdout, 'write').mockImplementation(write),
    vi.spyOn(process.stderr, 'write').mockImplementation(write),
  ];
  try {
    const code = await runCli(args);
    return { code, lines, output: lines.join('\n') };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}
