/**
 * What the same SQL costs behind the barest Node HTTP server (sql-floor-server.ts), timed by the
 * benchmark's own client: the part of an API's round trip that no framework work can remove on this
 * machine (HTTP parse and write, the driver's row parsing, JSON of the rows, scheduling of three
 * processes). The list benchmarks print it beside the API so a ratio to raw SQL can be read against it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { compile, type SqlFragment } from '../../apps/server/src/db/sql';
import { Client } from './http';

const root = path.resolve(import.meta.dirname, '../..');

export interface SqlFloor {
  /** Runs the statements (at once) through the bare server; resolves to the round trip in ms. */
  time(...queries: SqlFragment[]): Promise<number>;
  stop(): Promise<void>;
}

export async function startSqlFloor(databaseUrl: string): Promise<SqlFloor> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/sql-floor-server.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error('the SQL floor server did not start within 60 s')), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the SQL floor server exited with ${code}`));
    });
  });
  const client = new Client(url);
  return {
    async time(...queries) {
      return (await client.post<unknown>('/', { statements: queries.map((query) => compile(query)) })).ms;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
