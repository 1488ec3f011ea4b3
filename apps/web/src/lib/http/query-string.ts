import { toSnakeCase } from './case';

type ParamValue = string | number | boolean | null | undefined;

/**
 * Serialises query parameters: keys to snake_case, arrays as the same key repeated (`a=1&a=2`),
 * null and undefined left out.
 */
export function toQueryString(params: Record<string, ParamValue | readonly ParamValue[]> | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    const name = toSnakeCase(key);
    const values = Array.isArray(value) ? value : [value];
    for (const item of values as ParamValue[]) {
      if (item === null || item === undefined) continue;
      search.append(name, String(item));
    }
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

export type QueryParams = Parameters<typeof toQueryString>[0];
