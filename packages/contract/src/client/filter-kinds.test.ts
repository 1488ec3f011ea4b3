import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { filterKind, filterKinds } from './filter-kinds';

describe('filter kinds', () => {
  it('keeps text, numbers and booleans as one value', () => {
    expect(filterKind(z.string().trim().max(200).optional())).toBe('string');
    expect(filterKind(z.iso.datetime({ offset: true }).optional())).toBe('string');
    expect(filterKind(z.enum(['malicious', 'unknown']))).toBe('string');
    expect(filterKind(z.literal('x'))).toBe('string');
    expect(filterKind(z.number().int().min(0).optional())).toBe('number');
    expect(filterKind(z.boolean().optional())).toBe('boolean');
    expect(filterKind(z.string().transform((value) => value.toLowerCase()))).toBe('string');
    expect(filterKind(z.string().default('a').nullable())).toBe('string');
  });

  it('keeps a list, or one value or a list, as repeated values', () => {
    expect(filterKind(z.array(z.string()))).toBe('strings');
    expect(filterKind(z.union([z.number().int(), z.array(z.number().int()).max(500)]).optional())).toBe('numbers');
    expect(filterKind(z.union([z.enum(['a', 'b']), z.array(z.enum(['a', 'b']))]))).toBe('strings');
    // A union of text formats (an address or a block) is text.
    const ipOrCidr = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]);
    expect(filterKind(ipOrCidr)).toBe('string');
    expect(filterKind(z.union([ipOrCidr, z.array(ipOrCidr)]))).toBe('strings');
  });

  it('refuses what a URL cannot hold', () => {
    expect(() => filterKind(z.object({ a: z.string() }), 'nested')).toThrow(/nested: a list filter/);
    expect(() => filterKind(z.union([z.string(), z.number()]))).toThrow();
    expect(() => filterKind(z.array(z.boolean()))).toThrow();
    expect(() => filterKind(z.date())).toThrow();
    expect(() => filterKind('text')).toThrow();
  });

  it('names every filter of an object schema, sorted', () => {
    const filters = z.object({ search: z.string().optional(), company_id: z.array(z.number()).optional() }).strict();
    expect(filterKinds(filters)).toEqual({ company_id: 'numbers', search: 'string' });
    expect(Object.keys(filterKinds(filters))).toEqual(['company_id', 'search']);
    expect(() => filterKinds(z.string())).toThrow(/object schema/);
  });
});
