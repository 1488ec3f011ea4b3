#!/usr/bin/env node
// Runs the API tests on the embedded database, and again on the PostgreSQL server named by
// TEST_DATABASE_URL when it is set, so one schema is proven on both. A whole run (no file filter)
// also checks that every declared /api/ route was called by at least one test.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const extra = process.argv.slice(2);
const wholeRun = extra.every((arg) => arg.startsWith('-'));
const hitsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-route-hits-'));
const runs = [{ label: 'embedded PGlite', env: { ...process.env, TEST_DATABASE_URL: '' } }];
if (process.env.TEST_DATABASE_URL) {
  runs.push({ label: `PostgreSQL server (${process.env.TEST_DATABASE_URL})`, env: process.env });
}
for (const run of runs) {
  console.log(`\nAPI tests on ${run.label}`);
  // The tests mostly wait on HTTP and the database: more workers than cores keep both busy.
  const result = spawnSync('npx', ['vitest', 'run', '--project', 'api', '--maxWorkers=3', ...extra], {
    stdio: 'inherit',
    env: { ...run.env, VIGIL_ROUTE_HITS_DIR: hitsDir },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (wholeRun) {
  const served = new Set();
  const hits = new Set();
  for (const name of fs.readdirSync(hitsDir)) {
    const record = JSON.parse(fs.readFileSync(path.join(hitsDir, name), 'utf8'));
    for (const key of record.served) served.add(key);
    for (const key of record.hits) hits.add(key);
  }
  fs.rmSync(hitsDir, { recursive: true, force: true });
  const missing = [...served].filter((key) => !hits.has(key)).sort();
  if (missing.length > 0) {
    console.error(`\nThese declared routes were not called by any API test:\n  ${missing.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`\nEvery one of the ${served.size} declared routes was called by the API tests.`);
} else {
  fs.rmSync(hitsDir, { recursive: true, force: true });
}
