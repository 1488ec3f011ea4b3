import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { core } from './locales/en/core';
import { sectionLoaders, type Section } from './sections';

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const coreNames = new Set(Object.keys(core));
const sectionNames = new Set(Object.keys(sectionLoaders.en));
const routeMapFile = path.join(srcDir, 'app/route-map.tsx');

function resolveImport(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  return candidates.find((candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate));
}

/** Relative imports of a source file: static ones, and dynamic ones unless it is the route map. */
function importsOf(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:from|import)\s+'(\.[^']+)'/g)].map((match) => match[1] ?? '');
  if (file !== routeMapFile) {
    specifiers.push(...[...text.matchAll(/import\(\s*'(\.[^']+)'\s*\)/g)].map((match) => match[1] ?? ''));
  }
  return specifiers.flatMap((specifier) => resolveImport(file, specifier) ?? []);
}

/** The dictionary sections a text names: key literals such as 'alerts.queue.title' and valueLabel groups. */
function sectionsNamed(text: string): Set<string> {
  const named = new Set<string>();
  for (const match of text.matchAll(/['"`]([a-zA-Z]+)\.[\w$.{}-]/g)) named.add(match[1] ?? '');
  for (const match of text.matchAll(/valueLabel\(\s*['"`]([a-zA-Z]+)/g)) named.add(match[1] ?? '');
  return new Set([...named].filter((name) => coreNames.has(name) || sectionNames.has(name)));
}

/** Every section the code reachable from `entry` can show, with a file that names it. */
function sectionsReachable(entry: string): Map<string, string> {
  const seen = new Set<string>();
  const found = new Map<string, string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() ?? '';
    if (seen.has(file) || /\.test\.tsx?$/.test(file) || file.includes(`${path.sep}lib${path.sep}i18n${path.sep}`)) {
      continue;
    }
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const section of sectionsNamed(text)) if (!found.has(section)) found.set(section, path.relative(srcDir, file));
    queue.push(...importsOf(file, text));
  }
  return found;
}

function missing(entry: string, loaded: readonly string[]): string[] {
  const have = new Set([...coreNames, ...loaded]);
  return [...sectionsReachable(entry)].filter(([section]) => !have.has(section)).map(([s, file]) => `${s} (${file})`);
}

interface DeclaredPage {
  name: string;
  module: string;
  sections: string[];
}

function declaredPages(): DeclaredPage[] {
  const text = readFileSync(routeMapFile, 'utf8');
  const pages = [...text.matchAll(/const (\w+) = lazyPage\(\s*\(\) => import\('([^']+)'\),\s*\[([^\]]*)\]/g)].map(
    (match) => ({
      name: match[1] ?? '',
      module: resolveImport(routeMapFile, match[2] ?? '') ?? `unresolved ${match[2]}`,
      sections: [...(match[3] ?? '').matchAll(/'(\w+)'/g)].map((section) => section[1] ?? ''),
    }),
  );
  expect(pages.length).toBe([...text.matchAll(/= lazyPage\(/g)].length);
  return pages;
}

describe('the dictionary in parts', () => {
  it('has the same sections in every language, each a loader', () => {
    expect(Object.keys(sectionLoaders.ru).sort()).toEqual(Object.keys(sectionLoaders.en).sort());
    for (const section of sectionNames) expect(coreNames.has(section)).toBe(false);
  });

  it('the sign-in screens show only core texts', () => {
    expect(missing(path.join(srcDir, 'app/reduced-app.tsx'), [])).toEqual([]);
  });

  it('the shell of the console shows only core texts', () => {
    expect(missing(path.join(srcDir, 'app/main-app.tsx'), [])).toEqual([]);
  });

  it('each page loads every section its code can show', () => {
    const pages = declaredPages();
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages) {
      expect(existsSync(page.module), page.module).toBe(true);
      for (const section of page.sections) expect(sectionNames.has(section), `${page.name}: ${section}`).toBe(true);
      expect(missing(page.module, page.sections), page.name).toEqual([]);
    }
  });

  it('finds what a page shows through its imports, so a forgotten section fails', () => {
    const alerts = declaredPages().find((page) => page.name === 'AlertsPage');
    expect(alerts).toBeDefined();
    expect(missing(alerts?.module ?? '', [])).toContain('alerts (features/alerts/components/alerts-page.tsx)');
  });
});

export type { Section };
