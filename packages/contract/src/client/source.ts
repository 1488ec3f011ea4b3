import type { EndpointSpec, ListShape } from '../endpoint';
import { filterKinds } from './filter-kinds';

function isEndpoint(value: unknown): value is EndpointSpec {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'responses' in value;
}

/** A list resource's shape next to its endpoints (`listEndpoints`); its list endpoint carries it. */
function isListSpec(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'orderings' in value && 'filters' in value;
}

const quote = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const list = (values: readonly string[]) => `[${values.map(quote).join(', ')}]`;

function listShapeSource(shape: ListShape): string {
  const filters = Object.entries(filterKinds(shape.filters)).map(([name, kind]) => `${name}: ${quote(kind)}`);
  return (
    `{ basename: ${quote(shape.basename)}, orderings: ${list(shape.orderings)}, ` +
    `defaultOrdering: ${list(shape.defaultOrdering)}, filters: { ${filters.join(', ')} } }`
  );
}

/**
 * The console's view of the endpoint declarations, as TypeScript source: each endpoint's method and
 * path with its declaration as a type, and each list endpoint's shape (basename, orderings, filters
 * with their URL kinds). The file it makes
 * (`client/endpoints.generated.ts`) keeps zod and the schemas out of the browser's first download.
 */
export function clientEndpointsSource(endpoints: Record<string, unknown>): string {
  const lines = [
    '// Made from the endpoint declarations by `npm run generate:client`; a unit test fails when it is out of date.',
    "import type { endpoints as declared } from '../endpoints/index';",
    "import { listRef, ref } from './ref';",
    '',
    '/** Every endpoint of the API as the console calls it (method and path; the declaration as a type). */',
    'export const endpoints = {',
  ];
  const walk = (members: Record<string, unknown>, at: string, indent: string) => {
    for (const [name, value] of Object.entries(members)) {
      const type = `typeof declared${at}.${name}`;
      if (isEndpoint(value) && value.listShape) {
        lines.push(
          `${indent}${name}: listRef<${type}>(${quote(value.method)}, ${quote(value.path)}, ${listShapeSource(value.listShape)}),`,
        );
      } else if (isEndpoint(value)) {
        lines.push(`${indent}${name}: ref<${type}>(${quote(value.method)}, ${quote(value.path)}),`);
      } else if (isListSpec(value)) {
        continue;
      } else if (typeof value === 'object' && value !== null) {
        lines.push(`${indent}${name}: {`);
        walk(value as Record<string, unknown>, `${at}.${name}`, `${indent}  `);
        lines.push(`${indent}},`);
      } else {
        throw new Error(`endpoints${at}.${name} is neither an endpoint, a list's shape nor a group of them.`);
      }
    }
  };
  walk(endpoints, '', '  ');
  lines.push('} as const;', '');
  return lines.join('\n');
}
