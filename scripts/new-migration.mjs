#!/usr/bin/env node
// Creates an empty, dated migration file: npm run db:new-migration -- add-incidents
import fs from 'node:fs';
import path from 'node:path';

const name = (process.argv[2] ?? '')
  .trim()
  .toLowerCase()
  .replace(/[^a-z0-9]+/g, '_')
  .replace(/^_|_$/g, '');
if (!name) {
  console.error('Usage: npm run db:new-migration -- <name>   (for example: add-incidents)');
  process.exit(2);
}
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const dir = path.resolve(import.meta.dirname, '../apps/server/migrations');
const file = path.join(dir, `${stamp}_${name}.sql`);
fs.writeFileSync(
  file,
  `-- ${name.replace(/_/g, ' ')}\n-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.\n`,
  { flag: 'wx' },
);
console.log(`Created ${path.relative(process.cwd(), file)}`);
