/**
 * How a list filter is kept in a page's URL, derived from the filter's schema: one text, repeated
 * texts, a number, numbers or a boolean. A filter that takes one value or a list of them (the
 * usual `z.union([item, z.array(item)])`) is kept as repeated values.
 */
export type FilterKind = 'string' | 'strings' | 'number' | 'numbers' | 'boolean';

/** The kind of a filter whose value the caller sends as `T` (the schema's input type). */
export type FilterKindOf<T> = [NonNullable<T>] extends [boolean]
  ? 'boolean'
  : [NonNullable<T>] extends [string]
    ? 'string'
    : [NonNullable<T>] extends [number]
      ? 'number'
      : [NonNullable<T>] extends [string | readonly string[]]
        ? 'strings'
        : [NonNullable<T>] extends [number | readonly number[]]
          ? 'numbers'
          : never;

type Scalar = 'string' | 'number' | 'boolean';

/** The parts of a zod schema's definition the derivation reads (zod's documented `_zod.def`). */
interface SchemaDef {
  type: string;
  innerType?: SchemaLike;
  in?: SchemaLike;
  element?: SchemaLike;
  options?: readonly SchemaLike[];
  entries?: Record<string, unknown>;
  values?: readonly unknown[];
}
interface SchemaLike {
  _zod: { def: SchemaDef };
}

/** Wrappers that do not change what a caller sends. */
const wrappers = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch']);

function scalarOfValues(values: readonly unknown[]): Scalar | undefined {
  const kinds = new Set(values.map((value) => typeof value));
  if (kinds.size !== 1) return undefined;
  const [kind] = kinds;
  return kind === 'string' || kind === 'number' || kind === 'boolean' ? kind : undefined;
}

/** The kind of one schema, or undefined when a URL cannot hold it. */
function kindOf(schema: SchemaLike): FilterKind | undefined {
  let def = schema._zod.def;
  // The caller's side of a pipe (`.transform`, `z.preprocess`) is what the URL keeps.
  while (wrappers.has(def.type) || def.type === 'pipe') {
    const inner = def.type === 'pipe' ? def.in : def.innerType;
    if (!inner) return undefined;
    def = inner._zod.def;
  }
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
      return def.type;
    case 'enum':
      return scalarOfValues(Object.values(def.entries ?? {}));
    case 'literal':
      return scalarOfValues(def.values ?? []);
    case 'array': {
      const item = def.element ? kindOf(def.element) : undefined;
      return item === 'string' ? 'strings' : item === 'number' ? 'numbers' : undefined;
    }
    case 'union': {
      const kinds = new Set((def.options ?? []).map(kindOf));
      if (kinds.has(undefined)) return undefined;
      if (kinds.size === 1) return [...kinds][0];
      // One value or a list of them.
      if (kinds.size === 2 && kinds.has('string') && kinds.has('strings')) return 'strings';
      if (kinds.size === 2 && kinds.has('number') && kinds.has('numbers')) return 'numbers';
      return undefined;
    }
    default:
      return undefined;
  }
}

/** The URL kind of a filter's schema; throws for a schema a URL cannot hold (an object, a date). */
export function filterKind(schema: unknown, name = 'filter'): FilterKind {
  const kind =
    typeof schema === 'object' && schema !== null && '_zod' in schema ? kindOf(schema as SchemaLike) : undefined;
  if (!kind) throw new Error(`${name}: a list filter must be text, a number or a boolean, one or a list of them.`);
  return kind;
}

/** Each filter of an object schema (`z.object({...})`) with its URL kind, by name. */
export function filterKinds(filters: unknown): Record<string, FilterKind> {
  const def = (filters as SchemaLike | undefined)?._zod.def as
    (SchemaDef & { shape?: Record<string, unknown> }) | undefined;
  if (def?.type !== 'object' || !def.shape) throw new Error('List filters must be declared as an object schema.');
  return Object.fromEntries(
    Object.keys(def.shape)
      .sort()
      .map((name) => [name, filterKind(def.shape![name], name)]),
  );
}
