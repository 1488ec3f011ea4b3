import { endpoints, type EndpointSpec } from '@vigil/contract';

/** A list resource as the contract declares it with `listEndpoints`: its page and count routes. */
export interface ListEndpointGroup {
  spec: { filters: unknown };
  list: EndpointSpec;
  count: EndpointSpec;
}

function isListGroup(value: object): value is ListEndpointGroup {
  return 'spec' in value && 'list' in value && 'count' in value;
}

/**
 * Every list of the contract, found by walking `endpoints`, so that a list added later is covered
 * by the tests that take them all. Named by where it sits (`events.network`, `matchers.actions`).
 */
export function listEndpointGroups(): { name: string; group: ListEndpointGroup }[] {
  const found: { name: string; group: ListEndpointGroup }[] = [];
  const visit = (value: unknown, name: string): void => {
    if (typeof value !== 'object' || value === null || 'method' in value) return;
    if (isListGroup(value)) found.push({ name: name || 'root', group: value });
    for (const [key, item] of Object.entries(value)) {
      if (key !== 'spec') visit(item, name ? `${name}.${key}` : key);
    }
  };
  visit(endpoints, '');
  return found;
}

/** The names of a list's filters that are declared as an object's fields. */
export function filterNames(group: ListEndpointGroup): string[] {
  const shape = (group.spec.filters as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}
