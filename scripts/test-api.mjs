#!/usr/bin/env node
// Runs the API tests on the embedded database, and again on the PostgreSQL server named by
// TEST_DATABASE_URL when it is set, so one schema is proven on both.
import { spawnSync } from 'node:child_process';

const extra = process.argv.slice(2);
const runs = [{ label: 'embedded PGlite', env: { ...process.env, TEST_DATABASE_URL: '' } }];
if (process.env.TEST_DATABASE_URL) {
  runs.push({ label: `PostgreSQL server (${process.env.TEST_DATABASE_URL})`, env: process.env });
}
for (const run of runs) {
  console.log(`\nAPI tests on ${run.label}`);
  // The tests mostly wait on HTTP and the database: more workers than cores keep both busy.
  const result = spawnSync('npx', ['vitest', 'run', '--project', 'api', '--maxWorkers=3', ...extra], {
    stdio: 'inherit',
    env: run.env,
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
