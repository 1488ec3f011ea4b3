import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as client from '../client';
import { endpoints as declared, endpointEntries } from '../endpoints/index';
import { clientEndpointsSource } from './source';

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.resolve(here, '..');

/** The contract files a module loads at run time (type-only imports cost nothing and are skipped). */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'([^']+)';/gms)) {
    if (!match[1]) found.push(match[2]!);
  }
  return found;
}

describe('the console’s view of the contract', () => {
  it('is up to date with the endpoint declarations (run `npm run generate:client` after changing them)', () => {
    const written = readFileSync(path.join(here, 'endpoints.generated.ts'), 'utf8');
    expect(written).toBe(clientEndpointsSource(declared));
  });

  it('names every declared endpoint with its method and path', () => {
    const flat = new Map<string, { method: string; path: string }>();
    const walk = (value: unknown, at: string) => {
      if (typeof value !== 'object' || value === null) return;
      if ('method' in value && 'path' in value) {
        flat.set(at, value as { method: string; path: string });
        return;
      }
      for (const [key, inner] of Object.entries(value)) walk(inner, `${at}.${key}`);
    };
    walk(client.endpoints, 'endpoints');
    const declaredRoutes = endpointEntries().map(({ spec }) => `${spec.method} ${spec.path}`);
    const clientRoutes = [...flat.values()].map((ref) => `${ref.method} ${ref.path}`);
    expect(new Set(clientRoutes)).toEqual(new Set(declaredRoutes));
    expect(client.endpoints.units.list).toEqual({ method: 'POST', path: '/api/units/check/' });
    expect(client.endpoints.units.spec.defaultOrdering).toEqual(declared.units.spec.defaultOrdering);
    expect(client.endpoints.units.spec.filters).toContain('search');
  });

  it('loads no schema library at run time', () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const target of runtimeImports(file)) {
        expect(target, `${path.relative(src, file)} imports ${target}`).toMatch(/^\./);
        visit(path.resolve(path.dirname(file), `${target.replace(/\.ts$/, '')}.ts`));
      }
    };
    visit(path.join(src, 'client.ts'));
    expect(seen.size).toBeGreaterThan(3);
  });
});
