import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as client from '../client';
import { endpoints as declared, endpointEntries } from '../endpoints/index';
import { findResourceKind } from '../resources';
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
    expect(client.endpoints.units.get).toEqual({ method: 'GET', path: '/api/units/:id/' });
  });

  it('gives each list endpoint its shape: basename, orderings and filters with their URL kinds', () => {
    expect(client.endpoints.units.list).toEqual({
      method: 'POST',
      path: '/api/units/check/',
      listShape: {
        basename: 'companies',
        orderings: ['name', 'created_at', 'id'],
        defaultOrdering: ['name'],
        filters: { company_id: 'numbers', search: 'string' },
      },
    });
    // A list without a permission names its basename; a user's timeline is the system log's shape.
    expect(client.endpoints.sessions.list.listShape.basename).toBe('sessions');
    expect(client.endpoints.users.timeline.listShape).toEqual({
      ...client.endpoints.audit.systemLogs.list.listShape,
      basename: 'users',
    });
    expect(client.endpoints.alerts.list.listShape.filters).toMatchObject({
      unassigned: 'boolean',
      status: 'strings',
      last_seen_from: 'string',
    });
    for (const { spec } of endpointEntries()) {
      if (!spec.listShape) continue;
      expect(spec.path, spec.path).toMatch(/check\/$/);
      expect(findResourceKind(spec.listShape.basename), `${spec.path}: ${spec.listShape.basename}`).toBeDefined();
    }
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
