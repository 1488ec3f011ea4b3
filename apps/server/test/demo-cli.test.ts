import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { runCliCaptured } from '../src/cli/run-cli-captured';

const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
let dataDir: string;

/** Runs the command line and captures what it prints. */
async function vigil(...args: string[]) {
  const { code, output } = await runCliCaptured(args);
  return { code, output };
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'vigil-demo-cli-'));
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
});

afterAll(async () => {
  if (saved.DATA_DIR === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = saved.DATA_DIR;
  if (saved.DATABASE_URL !== undefined) process.env.DATABASE_URL = saved.DATABASE_URL;
  await rm(dataDir, { recursive: true, force: true });
});

describe('vigil demo load', () => {
  it('refuses an unknown scale, naming the ones it knows, and touches no database', async () => {
    const answer = await vigil('demo', 'load', '--scale', 'huge');
    expect(answer.code).toBe(1);
    expect(answer.output).toMatch(/'huge' is invalid\. Allowed choices are small, default, large/);
    const seed = await vigil('demo', 'load', '--seed', 'abc');
    expect(seed.code).toBe(1);
    expect(seed.output).toMatch(/The seed is a whole number from 0 to 4294967295/);
  });

  it('says so when the embedded database is open in a running server', async () => {
    await mkdir(path.join(dataDir, 'pgdata'), { recursive: true });
    await writeFile(path.join(dataDir, 'pgdata', 'postmaster.pid'), '-42\n');
    const answer = await vigil('demo', 'load', '--scale', 'small');
    expect(answer.code).toBe(1);
    expect(answer.output).toMatch(
      /vigil: The embedded database in .* is open in another process \(a running Vigil server\?\)/,
    );
    expect(answer.output).toMatch(/VIGIL_DEMO=1/);
  });

  it('reads VIGIL_DEMO and its scale from the environment, refusing unknown values', () => {
    expect(loadConfig({ VIGIL_DEMO: '1', VIGIL_DEMO_SCALE: 'small' }).demo).toMatchObject({
      enabled: true,
      scale: 'small',
      passwords: 'one-time',
    });
    expect(loadConfig({}).demo.enabled).toBe(false);
    expect(() => loadConfig({ VIGIL_DEMO: '1', VIGIL_DEMO_SCALE: 'huge' })).toThrow(ConfigError);
    expect(() => loadConfig({ VIGIL_DEMO: 'yes' })).toThrow(/VIGIL_DEMO="yes": must be 1 or 0/);
  });

  it('lists the command in the help', async () => {
    const answer = await vigil('demo', '--help');
    expect(answer.output).toMatch(/load \[options\]/);
  });
});
