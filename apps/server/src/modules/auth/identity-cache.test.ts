import { describe, expect, it } from 'vitest';
import { IdentityCache } from './identity-cache';

describe('IdentityCache', () => {
  it('keeps a value for its lifetime only', () => {
    let now = 1000;
    const cache = new IdentityCache(5000, 10, () => now);
    cache.set('a', 1, cache.mark());
    expect(cache.get('a')).toBe(1);
    now += 4999;
    expect(cache.get('a')).toBe(1);
    now += 1;
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops everything on invalidate, and refuses values read before it', () => {
    const cache = new IdentityCache(5000);
    const before = cache.mark();
    cache.set('a', 1, before);
    cache.invalidate();
    expect(cache.get('a')).toBeUndefined();
    cache.set('b', 2, before);
    expect(cache.get('b')).toBeUndefined();
    cache.set('b', 2, cache.mark());
    expect(cache.get('b')).toBe(2);
  });

  it('stays within its size, forgetting the oldest first', () => {
    const cache = new IdentityCache(5000, 2);
    cache.set('a', 1, cache.mark());
    cache.set('b', 2, cache.mark());
    cache.set('c', 3, cache.mark());
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toBe(3);
  });

  it('is off with a lifetime of zero', () => {
    const cache = new IdentityCache(0);
    cache.set('a', 1, cache.mark());
    expect(cache.get('a')).toBeUndefined();
  });
});
