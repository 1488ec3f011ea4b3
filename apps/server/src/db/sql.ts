/**
 * A small tagged-template SQL builder. Values become numbered parameters ($1, $2, …); only
 * identifiers that pass a strict pattern and fragments built by this module are spliced in as
 * text, so no caller can build SQL out of user input by accident.
 */

const fragmentMark = Symbol('sql.fragment');

export interface SqlFragment {
  readonly [fragmentMark]: true;
  /** Text pieces; values sit between consecutive pieces. */
  readonly strings: readonly string[];
  readonly values: readonly unknown[];
}

export interface CompiledSql {
  text: string;
  values: unknown[];
}

function isFragment(value: unknown): value is SqlFragment {
  return typeof value === 'object' && value !== null && fragmentMark in value;
}

function fragment(strings: readonly string[], values: readonly unknown[]): SqlFragment {
  return { [fragmentMark]: true, strings, values };
}

/** Builds a fragment; interpolated fragments nest, every other value becomes a parameter. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlFragment {
  return fragment([...strings], values);
}

const identifierPattern = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;

/** A table or column name, checked against a strict pattern and quoted. */
sql.ident = (name: string): SqlFragment => {
  if (!identifierPattern.test(name)) throw new Error(`Refusing unsafe SQL identifier: ${name}`);
  return fragment(
    [
      name
        .split('.')
        .map((part) => `"${part}"`)
        .join('.'),
    ],
    [],
  );
};

/** Trusted SQL text written in this code base (never user input). */
sql.raw = (text: string): SqlFragment => fragment([text], []);

/** Joins fragments with a separator (`, ` by default). */
sql.join = (parts: readonly SqlFragment[], separator = ', '): SqlFragment => {
  if (parts.length === 0) return fragment([''], []);
  const strings: string[] = [''];
  const values: unknown[] = [];
  parts.forEach((part, index) => {
    if (index > 0) strings[strings.length - 1] += separator;
    values.push(part);
    strings.push('');
  });
  return fragment(strings, values);
};

/** `a AND b AND …`, or `TRUE` when there is nothing to join. */
sql.and = (parts: readonly SqlFragment[]): SqlFragment =>
  parts.length === 0 ? sql.raw('TRUE') : sql`(${sql.join(parts, ') AND (')})`;

/** `a OR b OR …`, or `FALSE` when there is nothing to join. */
sql.or = (parts: readonly SqlFragment[]): SqlFragment =>
  parts.length === 0 ? sql.raw('FALSE') : sql`(${sql.join(parts, ') OR (')})`;

/** Turns a fragment into text with numbered parameters. */
export function compile(root: SqlFragment, startAt = 1): CompiledSql {
  const values: unknown[] = [];
  let text = '';
  const walk = (node: SqlFragment): void => {
    node.strings.forEach((piece, index) => {
      text += piece;
      if (index < node.values.length) {
        const value = node.values[index];
        if (isFragment(value)) walk(value);
        else {
          values.push(value);
          text += `$${values.length + startAt - 1}`;
        }
      }
    });
  };
  walk(root);
  return { text, values };
}
