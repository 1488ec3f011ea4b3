import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { findCycles, formatCycle, importGraph } from './import-cycles.mjs';

const checker = join(dirname(fileURLToPath(import.meta.url)), 'import-cycles.mjs');

let root: string;

/** A fixture tree: path → content, under a fresh folder with a tsconfig.base.json like the repository's. */
function tree(files: Record<string, string>): string {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'import-cycles-')));
  const all = {
    'tsconfig.base.json': JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler' } }),
    ...files,
  };
  for (const [path, content] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

const cyclesOf = (folders: string[]): string[] =>
  findCycles(importGraph(root, folders)).map((chain) => formatCycle(root, chain));

function runChecker(folders: string[]): { code: number; output: string } {
  try {
    const out = execFileSync(process.execPath, [checker, ...folders], { cwd: root, encoding: 'utf8', stdio: 'pipe' });
    return { code: 0, output: out };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { code: e.status, output: `${e.stdout}${e.stderr}` };
  }
}

/** Tests that start the checker as `npm run lint` does (a node process that loads the TypeScript compiler). */
const SPAWNS = { timeout: 60_000 };

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('import cycle checker', () => {
  it('finds nothing in a tree whose imports all lead one way', SPAWNS, () => {
    tree({
      'src/a.ts': "import { b } from './b';\nimport type { C } from './lib/c';\nexport const a = b;\n",
      'src/b.ts': "import { c } from './lib';\nexport const b = c;\n",
      'src/lib/index.ts': "export * from './c';\n",
      'src/lib/c.ts': 'export const c = 1;\nexport type C = number;\n',
    });
    expect(cyclesOf(['src'])).toEqual([]);
    expect(runChecker(['src'])).toEqual({ code: 0, output: 'import cycles: none among 4 files\n' });
  });

  it('reports a cycle as a readable chain, through an index file and a re-export, and fails', SPAWNS, () => {
    tree({
      'src/a.ts': "import { b } from './b.js';\nexport const a = 1;\nexport const ab = b;\n",
      'src/b.ts': "import { c } from './lib';\nexport const b = c;\n",
      'src/lib/index.ts': "export { c } from './c';\n",
      'src/lib/c.ts': "import { a } from '../a';\nexport const c = a;\n",
      'src/d.ts': "import { a } from './a';\nexport const d = a;\n",
    });
    expect(cyclesOf(['src'])).toEqual(['src/a.ts → src/b.ts → src/lib/index.ts → src/lib/c.ts → src/a.ts']);
    const run = runChecker(['src']);
    expect(run.code).toBe(1);
    expect(run.output).toContain('src/a.ts → src/b.ts → src/lib/index.ts → src/lib/c.ts → src/a.ts');
  });

  it('counts type-only imports and lists each cycle of a tangle once', () => {
    tree({
      'src/x.ts': "import type { Y } from './y';\nexport type X = Y[];\n",
      'src/y.ts': "import type { X } from './x';\nimport { z } from './z';\nexport type Y = X | typeof z;\n",
      'src/z.ts': "import type { Y } from './y';\nexport const z: Y | null = null;\n",
    });
    expect(cyclesOf(['src']).sort()).toEqual(['src/x.ts → src/y.ts → src/x.ts', 'src/y.ts → src/z.ts → src/y.ts']);
  });

  it('does not count a dynamic import() (a chunk loaded later), nor files outside the scanned folders', () => {
    tree({
      'src/page.ts': "import { route } from './routes';\nexport const page = route;\n",
      'src/routes.ts': "export const route = '/';\nexport const load = () => import('./page');\n",
      'other/o.ts': "import { p } from '../src/p';\nexport const o = p;\n",
      'src/p.ts': "import { o } from '../other/o';\nexport const p = 1;\nexport const po = o;\n",
    });
    expect(cyclesOf(['src'])).toEqual([]);
    expect(cyclesOf(['src', 'other'])).toEqual(['other/o.ts → src/p.ts → other/o.ts']);
  });
});
