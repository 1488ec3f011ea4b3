// Checks that every table of the server is written by one module: "each table has one module that
// writes it; other modules call that module's service" (docs/CODE_STYLE.md).
//
// A write is found in the SQL text of string and template literals — INSERT INTO t, UPDATE t,
// DELETE FROM t, TRUNCATE t, MERGE INTO t, COPY t (…) — and in calls of the bulk helpers that
// name their table as an argument: bulkInsert(db, 't', …), copyRows(db, 't', …),
// copyWritten(db, 't', …), db.copyFrom('t', …). `ON CONFLICT … DO UPDATE`, `FOR UPDATE` and
// `FOR NO KEY UPDATE` write nothing of their own, and comments are not looked at. A file's module
// is its folder under modules/ (modules/users/…: users); a file elsewhere (db/, cli/, app.ts) is
// its own owner, by its first folder or its name.
//
// A write whose table is only known at run time (`DELETE FROM ${sql.ident(table)}`) must be
// declared below with the tables it can reach, so nothing is written behind the checker's back.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * Files whose SQL names its table at run time, paths relative to the scanned folder, with the
 * tables they may write (counted as written by the file's module) and why the name is not in the text.
 */
export const dynamicWriters = [
  {
    file: 'db/bulk.ts',
    tables: [],
    reason: "bulkInsert writes the table its caller names: the write counts at the caller's call",
  },
  {
    file: 'db/copy.ts',
    tables: [],
    reason: "copyRows and copyWritten write the table their caller names: the write counts at the caller's call",
  },
  {
    file: 'db/database.ts',
    tables: [],
    reason: "copyFrom runs COPY into the table its caller names: the write counts at the caller's call",
  },
  {
    file: 'modules/ingest/prune.repository.ts',
    tables: ['network_events', 'endpoint_events', 'mail_messages', 'mail_attachments'],
    reason: 'retention deletes the old rows of each event table in turn, by name (eventTables)',
  },
];

/**
 * Tables a second module may write, each with its reason. Empty: demo data goes in through the
 * application's own API (modules/demo/load-demo.ts), so no module bulk-loads another's tables.
 * Add an entry only when moving the write to the table's owner is impossible, e.g.
 * `{ table: 'alerts', module: 'demo', reason: '…' }`.
 */
export const exceptions = [];

const sourceFile = /\.(ts|mts|cts)$/;
const skippedDirs = new Set(['node_modules', 'dist']);

/** Every non-test TypeScript file under `root` (migrations and declaration files left out), relative. */
function listFiles(root, dir = root, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const rel = relative(root, path).split(sep).join('/');
    if (entry.isDirectory()) {
      if (skippedDirs.has(entry.name) || rel === 'db/migrations') continue;
      listFiles(root, path, out);
    } else if (sourceFile.test(entry.name) && !/\.(test|d)\.[mc]?ts$/.test(entry.name)) out.push(rel);
  }
  return out.sort();
}

/** The module a file belongs to: its folder under modules/, else its first folder, else its name. */
export function moduleOf(file) {
  const parts = file.split('/');
  if (parts[0] === 'modules' && parts.length > 2) return parts[1];
  return parts.length > 1 ? `${parts[0]}/` : parts[0];
}

const target = String.raw`("?\$\{\}"?|"?[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)?"?)`;
const statements = [
  { kind: 'INSERT INTO', pattern: new RegExp(String.raw`\bINSERT\s+INTO\s+${target}`, 'g') },
  { kind: 'MERGE INTO', pattern: new RegExp(String.raw`\bMERGE\s+INTO\s+(?:ONLY\s+)?${target}`, 'g') },
  { kind: 'DELETE FROM', pattern: new RegExp(String.raw`\bDELETE\s+FROM\s+(?:ONLY\s+)?${target}`, 'g') },
  { kind: 'TRUNCATE', pattern: new RegExp(String.raw`\bTRUNCATE\s+(?:TABLE\s+)?(?:ONLY\s+)?${target}`, 'g') },
  { kind: 'COPY', pattern: new RegExp(String.raw`\bCOPY\s+${target}\s*(?:\(|FROM\b)`, 'g') },
  // Not `FOR UPDATE`, `FOR NO KEY UPDATE` (row locks) nor `ON CONFLICT … DO UPDATE` (the insert's own table).
  { kind: 'UPDATE', pattern: new RegExp(String.raw`(?<!\b(?:FOR|KEY|DO)\s+)\bUPDATE\s+(?:ONLY\s+)?${target}`, 'g') },
];

/** Bulk helpers that take the table as an argument, and which argument. */
const helpers = { bulkInsert: 1, copyRows: 1, copyWritten: 1, copyFrom: 0 };

function tableName(captured) {
  const name = captured.replaceAll('"', '');
  if (name.includes('${}')) return null;
  return name.startsWith('public.') ? name.slice('public.'.length) : name;
}

/**
 * The writes in one file's text: `{ table, kind, line }`, `table` null when the SQL names its table
 * only at run time.
 */
export function writesIn(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const writes = [];
  const lineAt = (pos) => source.getLineAndCharacterOfPosition(pos).line + 1;
  /** SQL text pieces of a literal, each with where it starts in the file; `${}` marks a substitution. */
  const scan = (pieces) => {
    let joined = '';
    const starts = [];
    for (const piece of pieces) {
      starts.push({ at: joined.length, pos: piece.pos });
      joined += piece.text;
    }
    const found = [];
    for (const { kind, pattern } of statements) {
      for (const match of joined.matchAll(pattern)) found.push({ index: match.index, kind, name: match[1] });
    }
    for (const { index, kind, name } of found.sort((a, b) => a.index - b.index)) {
      const start = starts.filter((s) => s.at <= index).pop();
      writes.push({ table: tableName(name), kind, line: lineAt(start.pos + (index - start.at)) });
    }
  };
  /** `sql.ident('name')` inside a template is the name itself; anything else is unknown text. */
  const substitution = (expression) => {
    if (
      ts.isCallExpression(expression) &&
      expression.expression.getText(source) === 'sql.ident' &&
      expression.arguments[0] &&
      ts.isStringLiteralLike(expression.arguments[0])
    )
      return expression.arguments[0].text;
    return '${}';
  };
  const visit = (node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      scan([{ text: node.text, pos: node.getStart(source) + 1 }]);
    } else if (ts.isTemplateExpression(node)) {
      const pieces = [{ text: node.head.text, pos: node.head.getStart(source) + 1 }];
      for (const span of node.templateSpans) {
        pieces.push({ text: substitution(span.expression), pos: span.expression.getStart(source) });
        pieces.push({ text: span.literal.text, pos: span.literal.getStart(source) + 1 });
      }
      scan(pieces);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : null;
      if (name !== null && Object.hasOwn(helpers, name)) {
        const argument = node.arguments[helpers[name]];
        if (argument) {
          const table = ts.isStringLiteralLike(argument) ? tableName(argument.text) : null;
          writes.push({ table, kind: `${name}()`, line: lineAt(argument.getStart(source)) });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return writes;
}

/**
 * Which modules write which tables under `root` (`owners`: table → modules), and what is wrong:
 * tables written from more than one module (`conflicts`), writes whose table the checker cannot name and that are not declared
 * (`undeclared`), and declarations that no longer match the code (`stale`).
 */
export function checkTableWriters(root, options = {}) {
  const declared = options.dynamicWriters ?? dynamicWriters;
  const allowed = options.exceptions ?? exceptions;
  const files = listFiles(root);
  /** table → module → ["file:line", …] */
  const writers = new Map();
  const note = (table, module, where) => {
    if (!writers.has(table)) writers.set(table, new Map());
    const byModule = writers.get(table);
    if (!byModule.has(module)) byModule.set(module, []);
    byModule.get(module).push(where);
  };
  const undeclared = [];
  const stale = [];
  for (const file of files) {
    const writes = writesIn(file, readFileSync(join(root, file), 'utf8'));
    const module = moduleOf(file);
    const declaration = declared.find((d) => d.file === file);
    let dynamic = false;
    for (const write of writes) {
      if (write.table === null) {
        dynamic = true;
        if (!declaration) undeclared.push(`${file}:${write.line} (${write.kind} a table named at run time)`);
        continue;
      }
      note(write.table, module, `${file}:${write.line}`);
    }
    if (declaration) {
      if (!dynamic) stale.push(`${file}: declared as writing tables named at run time, but it writes none`);
      for (const table of declaration.tables) note(table, module, `${file} (declared)`);
    }
  }
  for (const { table, module } of allowed) {
    const modules = writers.get(table);
    if (!modules?.has(module) && files.some((f) => moduleOf(f) === module))
      stale.push(`exception ${module} → ${table}: ${module} no longer writes ${table}`);
  }
  const conflicts = [];
  for (const [table, byModule] of [...writers].sort(([a], [b]) => a.localeCompare(b))) {
    const counted = [...byModule].filter(([module]) => !allowed.some((e) => e.table === table && e.module === module));
    if (counted.length > 1) {
      conflicts.push({
        table,
        modules: counted
          .map(([module, places]) => ({
            module,
            places: places.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })),
          }))
          .sort((a, b) => a.module.localeCompare(b.module)),
      });
    }
  }
  const owners = Object.fromEntries(
    [...writers]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([table, byModule]) => [table, [...byModule.keys()].sort()]),
  );
  return { files: files.length, tables: writers.size, owners, conflicts, undeclared, stale };
}

/** The checker's report: lines to print, and whether the tree passes. */
export function report(result) {
  const { conflicts, undeclared, stale } = result;
  if (conflicts.length === 0 && undeclared.length === 0 && stale.length === 0)
    return { ok: true, lines: [`table writers: ${result.tables} tables, each written by one module`] };
  const lines = [];
  if (conflicts.length > 0) {
    lines.push(
      `table writers: ${conflicts.length} table(s) written from more than one module ` +
        "(each table has one module that writes it; other modules call that module's service):",
    );
    for (const { table, modules } of conflicts) {
      lines.push(`  ${table} — written by ${modules.map((m) => m.module).join(', ')}:`);
      for (const { module, places } of modules) lines.push(`    ${module}: ${places.join(', ')}`);
    }
  }
  if (undeclared.length > 0) {
    lines.push('table writers: writes whose table is named only at run time (name it, or declare the file in');
    lines.push('  dynamicWriters of scripts/table-writers.mjs with the tables it may write):');
    for (const place of undeclared) lines.push(`  ${place}`);
  }
  if (stale.length > 0) {
    lines.push('table writers: declarations in scripts/table-writers.mjs that no longer match the code:');
    for (const line of stale) lines.push(`  ${line}`);
  }
  return { ok: false, lines };
}

const isMain = process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (isMain) {
  // Usage, from the repository root: node scripts/table-writers.mjs [folder] (default: apps/server/src).
  const root = resolve(process.cwd(), process.argv[2] ?? 'apps/server/src');
  if (!existsSync(root)) {
    console.error(`table writers: no folder ${root}`);
    process.exit(2);
  }
  const { ok, lines } = report(checkTableWriters(root));
  for (const line of lines) (ok ? console.log : console.error)(line);
  if (!ok) process.exitCode = 1;
}
