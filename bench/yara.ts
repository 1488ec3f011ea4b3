/**
 * YARA scanning throughput of warehouse files: the scan job's path (WarehouseScan: files read from
 * the database, scanned in the scanning process with a timeout each, matches filtered per company
 * and stored, scan rows written) against yara-x scanning the same bytes with the same compiled
 * rules directly in this process, in the same run. Rules: every file of BENCH_YARA_DIR
 * (/work/shared/data/yara) that compiles, stored one rule a row as the rule store keeps them.
 * Prints MB/s of both and their ratio (target ≥ 0.8).
 *
 * Usage: `npx tsx bench/yara.ts` (embedded PGlite) or with BENCH_DATABASE_URL for a PostgreSQL
 * server; BENCH_YARA_MB (default 16) sets the bytes scanned, BENCH_YARA_FILE_KB (default 256) the
 * mean file size.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compile } from '@litko/yara-x';
import { loadConfig } from '../apps/server/src/config';
import { bulkInsert } from '../apps/server/src/db/bulk';
import { migrate } from '../apps/server/src/db/migrate';
import { sql } from '../apps/server/src/db/sql';
import { WarehouseScan, externalsOf } from '../apps/server/src/modules/rules/yara/warehouse-scan';
import { externalsFor } from '../apps/server/src/modules/rules/yara/yara-scanner';
import { compilerOptions } from '../apps/server/src/modules/rules/yara/yara-compile';
import { loadEnabledYaraRules } from '../apps/server/src/modules/rules/yara/yara-scan.repository';
import { buildRuleSet } from '../apps/server/src/modules/rules/yara/yara-ruleset';
import { parseYaraSource } from '../apps/server/src/modules/rules/yara/yara-source';
import { checkYaraFiles } from '../apps/server/src/modules/rules/yara/check';
import { bootstrap } from '../apps/server/src/modules/users/bootstrap';
import { openBenchDatabase } from './lib/database';

const rulesDir = process.env.BENCH_YARA_DIR ?? '/work/shared/data/yara';
const totalMb = Number(process.env.BENCH_YARA_MB ?? 16);
const meanKb = Number(process.env.BENCH_YARA_FILE_KB ?? 256);
const progress = (text: string) => process.stderr.write(`${text}\n`);

let seed = 7;
const rand = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x100000000;
};
const words = [
  'http://',
  'cmd.exe /c ',
  'powershell -enc ',
  'GetProcAddress',
  'LoadLibraryA',
  'VirtualAlloc',
  'This program cannot be run in DOS mode',
  'kernel32.dll',
  '<script>',
  'eval(',
  'password',
  'invoice',
  'Mozilla/5.0',
  '\\AppData\\Roaming\\',
];

/** The name the company saw file `i` under. */
const fileName = (i: number) => `file-${i}.${i % 2 === 0 ? 'exe' : 'txt'}`;

/** A file: half of them random bytes behind a PE header, half text made of words malware rules look for. */
function makeFile(i: number, size: number): Buffer {
  if (i % 2 === 0) {
    const data = randomBytes(size);
    data.write('MZ', 0, 'latin1');
    return data;
  }
  const parts: string[] = [];
  let length = 0;
  while (length < size) {
    const w = rand() < 0.3 ? words[Math.floor(rand() * words.length)]! : `${Math.floor(rand() * 1e9).toString(36)} `;
    parts.push(w);
    length += w.length;
  }
  return Buffer.from(parts.join('').slice(0, size), 'latin1');
}

/** The rules of a file, one a row: each rule's text runs from its header to the next rule's. */
function splitRules(file: string, source: string) {
  const lines = source.split('\n');
  const rules = parseYaraSource(source).rules;
  return rules.map((rule, k) => {
    const from = k === 0 ? 0 : rule.line - 1;
    const to = k + 1 < rules.length ? rules[k + 1]!.line - 1 : lines.length;
    const imports = k === 0 ? [] : parseYaraSource(source).imports.map((name) => `import "${name}"`);
    return { name: rule.name, source: [...imports, ...lines.slice(from, to)].join('\n'), file };
  });
}

async function main(): Promise<void> {
  if (!fs.existsSync(rulesDir)) {
    progress(`no YARA rules at ${rulesDir}: nothing to measure`);
    return;
  }
  const target = await openBenchDatabase(process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL);
  const { db } = target;
  try {
    const scratch = path.join(os.tmpdir(), 'vigil-bench-no-web');
    const config = loadConfig({
      VIGIL_ADMIN_USERNAME: 'bench-admin',
      VIGIL_ADMIN_PASSWORD: randomBytes(18).toString('base64url'),
      DATA_DIR: scratch,
      WEB_DIST_DIR: scratch,
      LOG_LEVEL: 'silent',
      JOBS_POLL_MS: '0',
    });
    progress(`database: ${target.label}`);
    await migrate(db);
    await bootstrap(db, config);
    const company = Number(
      (await db.query<{ id: number }>(sql`SELECT id FROM companies ORDER BY id LIMIT 1`)).rows[0]!.id,
    );

    const files = fs
      .readdirSync(rulesDir)
      .filter((f) => /\.(yar|yara)$/i.test(f))
      .sort()
      .map((f) => path.join(rulesDir, f));
    const checks = await checkYaraFiles(files);
    const compiled = checks.filter((c) => c.status === 'compiled');
    const rows: unknown[][] = [];
    for (const check of compiled) {
      const source = fs.readFileSync(check.path, 'utf8');
      const name = path.basename(check.path);
      for (const rule of splitRules(name, source)) {
        rows.push([
          company,
          'yara',
          'all',
          `${name}:${rule.name}`,
          rule.name,
          rule.source,
          createHash('sha256').update(rule.source).digest('hex'),
          name,
        ]);
      }
    }
    await bulkInsert(
      db,
      'rules',
      [
        { name: 'company_id', type: 'int8' },
        { name: 'kind', type: 'text' },
        { name: 'scope', type: 'text' },
        { name: 'rule_key', type: 'text' },
        { name: 'title', type: 'text' },
        { name: 'source', type: 'text' },
        { name: 'source_sha256', type: 'text' },
        { name: 'file_name', type: 'text' },
      ],
      rows,
      { onConflictDoNothing: true },
    );
    progress(`rules: ${compiled.length} of ${files.length} files compile, ${rows.length} rules stored`);

    const raised = { n: 0 };
    const scan = new WarehouseScan(
      db,
      {
        raise: async (_tx, detections) => {
          raised.n += detections.length;
          return { created: [], updated: [], live: [] };
        },
        publish: async () => undefined,
      },
      { warn: () => undefined, info: () => undefined },
      { budgetMs: 3_600_000, timeoutMs: 60_000 },
    );
    try {
      const started = Date.now();
      await scan.run(); // compiles the scanner; the warehouse is empty yet
      const compileMs = Date.now() - started;
      const set = await buildRuleSet((await loadEnabledYaraRules(db)).rules);
      progress(`scanner: ${set.units.length} units, ${set.rules.size} rules mapped, compiled in ${compileMs} ms`);

      // The warehouse: files seen by the company in mail.
      const contents: Buffer[] = [];
      let bytes = 0;
      for (let i = 0; bytes < totalMb * 1024 * 1024; i++) {
        const size = Math.max(1024, Math.round(meanKb * 1024 * (0.25 + 1.5 * rand())));
        const data = makeFile(i, size);
        contents.push(data);
        bytes += data.length;
      }
      for (const [i, data] of contents.entries()) {
        const hash = createHash('sha256').update(data).digest('hex');
        await db.query(sql`
          INSERT INTO warehouse_files (sha256, md5, sha1, size, detected_type, content)
          VALUES (${hash}, ${createHash('md5').update(data).digest('hex')}, ${createHash('sha1').update(data).digest('hex')},
                  ${data.length}, ${i % 2 === 0 ? 'pe' : 'text'}, decode(${data.toString('hex')}, 'hex'))`);
        await db.query(sql`
          INSERT INTO warehouse_hashes (company_id, sha256, filename, sources, sightings, last_event_kind, last_event_id)
          VALUES (${company}, ${hash}, ${fileName(i)}, '{mail}', 1, 'mail', ${i + 1})`);
      }
      const mb = bytes / 1024 / 1024;
      progress(`warehouse: ${contents.length} files, ${mb.toFixed(1)} MB`);

      // yara-x directly: the same units, compiled here, over the same bytes.
      const direct = set.units.map((u) => compile(u.source, compilerOptions()));
      let directMatches = 0;
      // With the external variables the job gives each file (its name as the company saw it, its
      // detected type), made before the clock starts: the rules guarded by them do the same work.
      const vars = contents.map((data, i) =>
        externalsFor(data, externalsOf({ detectedType: i % 2 === 0 ? 'pe' : 'text' }, [fileName(i)])),
      );
      const t0 = process.hrtime.bigint();
      contents.forEach((data, i) => {
        for (const rules of direct) directMatches += rules.scan(data, vars[i]).length;
      });
      const directSeconds = Number(process.hrtime.bigint() - t0) / 1e9;

      const t1 = process.hrtime.bigint();
      const result = await scan.run();
      const jobSeconds = Number(process.hrtime.bigint() - t1) / 1e9;

      const directRate = mb / directSeconds;
      const jobRate = mb / jobSeconds;
      console.log(`YARA warehouse scan, ${target.label}`);
      console.log(`rules: ${set.rules.size} in ${set.units.length} compiled units (${compiled.length} files)`);
      console.log(`files: ${contents.length}, ${mb.toFixed(1)} MB`);
      console.log(
        `yara-x directly: ${directRate.toFixed(1)} MB/s (${directSeconds.toFixed(2)} s, ${directMatches} matches)`,
      );
      console.log(
        `scan job:        ${jobRate.toFixed(1)} MB/s (${jobSeconds.toFixed(2)} s, ${result.scanned} scanned, ` +
          `${result.skipped} skipped, ${result.matches} matches kept, ${raised.n} alerts)`,
      );
      console.log(`ratio: ${(jobRate / directRate).toFixed(2)} (target ≥ 0.80)`);
    } finally {
      await scan.close();
    }
  } finally {
    await target.dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
