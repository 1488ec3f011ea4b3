import { z } from 'zod';
import type { EndpointSpec } from '../endpoint';

function isEndpoint(value: unknown): value is EndpointSpec {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'responses' in value;
}

function isListSpec(value: unknown): value is { orderings: string[]; defaultOrdering: string[]; filters: z.ZodType } {
  return typeof value === 'object' && value !== null && 'orderings' in value && 'filters' in value;
}

function filterNames(schema: z.ZodType): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape).sort() : [];
}

const quote = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const list = (values: readonly string[]) => `[${values.map(quote).join(', ')}]`;

/**
 * The console's view of the endpoint declarations, as TypeScript source: each endpoint's method and
 * path with its declaration as a type, and each list's orderings and filter names. The file it makes
 * (`client/endpoints.generated.ts`) keeps zod and the schemas out of the browser's first download.
 */
export function clientEndpointsSource(endpoints: Record<string, unknown>): string {
  const lines = [
    '// Made from the endpoint declarations by `npm run generate:client`; a unit test fails when it is out of date.',
    "import type { endpoints as declared } from '../endpoints/index';",
    "import { listSpec, ref } from './ref';",
    '',
    '/** Every endpoint of the API as the console calls it (method and path; the declaration as a type). */',
    'export const endpoints = {',
  ];
  const walk = (members: Record<string, unknown>, at: string, indent: string) => {
    for (const [name, value] of Object.entries(members)) {
      const type = `typeof declared${at}.${name}`;
      if (isEndpoint(value)) {
        lines.push(`${indent}${name}: ref<${type}>(${quote(value.method)}, ${quote(value.path)}),`);
      } else if (isListSpec(value)) {
        lines.push(
          `${indent}${name}: listSpec<${type}>({ orderings: ${list(value.orderings)}, defaultOrdering: ${list(value.defaultOrdering)}, filters: ${list(filterNames(value.filters))} }),`,
        );
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
