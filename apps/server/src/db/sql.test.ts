import { describe, expect, it } from 'vitest';
import { compile, sql } from './sql';

describe('sql', () => {
  it('numbers parameters in order, across nested fragments', () => {
    const where = sql.and([sql`a = ${1}`, sql`b = ANY(${['x', 'y']})`]);
    const q = compile(sql`SELECT * FROM ${sql.ident('t')} WHERE ${where} LIMIT ${10}`);
    expect(q.text).toBe('SELECT * FROM "t" WHERE (a = $1) AND (b = ANY($2)) LIMIT $3');
    expect(q.values).toEqual([1, ['x', 'y'], 10]);
  });

  it('never splices values into the text', () => {
    const evil = "'; DROP TABLE users; --";
    const q = compile(sql`SELECT ${evil}`);
    expect(q.text).toBe('SELECT $1');
    expect(q.values).toEqual([evil]);
  });

  it('refuses identifiers that are not plain names', () => {
    expect(() => sql.ident('users; drop')).toThrow(/unsafe/);
    expect(compile(sql.ident('s.t')).text).toBe('"s"."t"');
  });

  it('joins with TRUE/FALSE for empty lists', () => {
    expect(compile(sql.and([])).text).toBe('TRUE');
    expect(compile(sql.or([])).text).toBe('FALSE');
    expect(compile(sql.join([sql`a`, sql`b`])).text).toBe('a, b');
  });
});
