// Finds import cycles between the TypeScript files of some source folders.
//
// Every static `import … from`, `import type … from`, `export … from`, `import x = require()` and
// `import('…')` type counts, type-only ones included: they are erased at run time, but a cycle of types is still two
// modules that cannot be understood, tested or moved one without the other. Dynamic `import()` does
// not count: it is how the web console splits its pages into chunks loaded later, never at start-up.
// Specifiers are resolved as the TypeScript compiler resolves them (tsconfig.base.json's options),
// so `./x`, `./x.js`, `./dir` (index) and the workspace packages (`@vigil/contract`) all land on the
// file they mean; files outside the scanned folders end the walk.
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const sourceFile = /\.(ts|tsx|mts|cts)$/;
const skipped = new Set(['node_modules', 'dist']);

/** Every TypeScript file under `dir` (declaration files left out). */
function listFiles(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skipped.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listFiles(path, out);
    else if (sourceFile.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(realpathSync(path));
  }
  return out;
}

/**
 * The module specifiers a file imports statically: import and export declarations (type-only ones
 * too), `import x = require()`, and `import('…')` used as a type. Not `import()` calls.
 */
function specifiersOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found = [];
  const literal = (node) => (node && ts.isStringLiteral(node) ? found.push(node.text) : undefined);
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) literal(statement.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference))
      literal(statement.moduleReference.expression);
  }
  const visit = (node) => {
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The compiler options modules are resolved with: tsconfig.base.json at `root` when present. */
function compilerOptions(root) {
  const configPath = join(root, 'tsconfig.base.json');
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) return { moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext };
  return ts.parseJsonConfigFileContent({ ...read.config, include: [] }, ts.sys, root, undefined, configPath).options;
}

/**
 * The import graph of the files under `folders` (absolute): file → the files of the graph it imports.
 * `root` is where tsconfig.base.json is looked for.
 */
export function importGraph(root, folders) {
  const files = folders.flatMap((folder) => listFiles(resolve(root, folder)));
  const known = new Set(files);
  const options = compilerOptions(root);
  const host = { ...ts.sys, realpath: (p) => realpathSync(p) };
  const cache = ts.createModuleResolutionCache(root, (name) => name, options);
  const graph = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const specifier of specifiersOf(file)) {
      const resolved = ts.resolveModuleName(specifier, file, options, host, cache).resolvedModule;
      if (!resolved) continue;
      let target;
      try {
        target = realpathSync(resolved.resolvedFileName);
      } catch {
        continue;
      }
      if (known.has(target) && target !== file) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan's algorithm, iterative). */
function tangledComponents(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, next] = frame;
      const edges = graph.get(node) ?? [];
      if (next < edges.length) {
        frame[1] += 1;
        const to = edges[next];
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push([to, 0]);
        } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1) components.push(component.sort());
      }
    }
  }
  return components;
}

/** The shortest chain from `start` back to itself inside `members`, as a list of files ending where it began. */
function shortestCycleThrough(graph, start, members) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const chain = [start];
        for (let at = node; at !== start; at = previous.get(at)) chain.splice(1, 0, at);
        chain.push(start);
        return chain;
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return null;
}

/**
 * The import cycles of a graph: for every file caught in one, the shortest chain that leads from it
 * back to itself; a chain found from several of its files is listed once. Each chain is a list of
 * files whose last element is its first.
 */
export function findCycles(graph) {
  const cycles = [];
  const seen = new Set();
  for (const component of tangledComponents(graph)) {
    const members = new Set(component);
    for (const file of component) {
      const chain = shortestCycleThrough(graph, file, members);
      if (!chain) continue;
      // The same ring found from another of its files is the same cycle: start it at its first file.
      const ring = chain.slice(0, -1);
      const first = ring.indexOf([...ring].sort()[0]);
      const rotated = [...ring.slice(first), ...ring.slice(0, first)];
      const key = rotated.join('\n');
      if (seen.has(key)) continue;
      seen.add(key);
      cycles.push([...rotated, rotated[0]]);
    }
  }
  return cycles;
}

/** One cycle as the checker prints it: `a.ts → b.ts → a.ts`, paths relative to `root`. */
export function formatCycle(root, chain) {
  return chain.map((file) => relative(root, file)).join(' → ');
}

const isMain = process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (isMain) {
  // Usage, from the repository root: node scripts/import-cycles.mjs [folder…]
  // (default: the apps' and the contract's sources).
  const root = process.cwd();
  const args = process.argv.slice(2);
  const folders = args.length > 0 ? args : ['apps/server/src', 'apps/web/src', 'packages/contract/src'];
  const graph = importGraph(root, folders);
  const cycles = findCycles(graph);
  if (cycles.length === 0) {
    console.log(`import cycles: none among ${graph.size} files`);
  } else {
    console.error(`import cycles: ${cycles.length} found (type-only imports count too):`);
    for (const chain of cycles) console.error(`  ${formatCycle(root, chain)}`);
    process.exitCode = 1;
  }
}
