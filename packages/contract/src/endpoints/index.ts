import type { EndpointSpec } from '../endpoint';
import { docsEndpoints } from './docs';
import { unitEndpoints } from './units';

/**
 * Every endpoint of the API, by area. The server registers exactly these routes (a route outside
 * them fails at start-up), the console calls them through its typed client, and the OpenAPI
 * document lists them.
 */
export const endpoints = {
  docs: docsEndpoints,
  units: unitEndpoints,
};

function isEndpoint(value: unknown): value is EndpointSpec {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'responses' in value;
}

function collect(value: unknown, name: string, into: Map<EndpointSpec, string>): void {
  if (isEndpoint(value)) {
    if (!into.has(value)) into.set(value, name);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, item] of Object.entries(value)) collect(item, name ? `${name}.${key}` : key, into);
}

/** Every declared endpoint once, with its name in `endpoints` (e.g. `units.create`). */
export function endpointEntries(): { name: string; spec: EndpointSpec }[] {
  const found = new Map<EndpointSpec, string>();
  collect(endpoints, '', found);
  return [...found].map(([spec, name]) => ({ name, spec }));
}
