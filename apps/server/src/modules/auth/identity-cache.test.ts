import { describe, expect, it } from 'vitest';
import { IdentityCache, type RevocationEpoch } from './identity-cache';

/** The epoch of a database shared by processes, as each process sees it (one counter). */
function sharedEpoch() {
  let value = 0;
  let broken = false;
  const epoch: RevocationEpoch = {
    read: async () => {
      if (broken) throw new Error('database unreachable');
      return value;
    },
    bump: async () => (value += 1),
  };
  return { epoch, breakIt: () => (broken = true) };
}

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

  it('forgets everything, in every process sharing the epoch, once any of them revokes', async () => {
    const { epoch } = sharedEpoch();
    const here = new IdentityCache(60_000, 100, Date.now, epoch);
    const there = new IdentityCache(60_000, 100, Date.now, epoch);
    let reads = 0;
    const resolve = async () => `caller ${(reads += 1)}`;
    expect(await there.remember('session:a', resolve)).toBe('caller 1');
    expect(await there.remember('session:a', resolve)).toBe('caller 1');
    await here.revoke();
    // The next use in the other process reads again.
    expect(await there.remember('session:a', resolve)).toBe('caller 2');
    expect(await there.remember('session:a', resolve)).toBe('caller 2');
  });

  it('does not keep what was read before a revocation it has since seen', async () => {
    const { epoch } = sharedEpoch();
    const cache = new IdentityCache(60_000, 100, Date.now, epoch);
    await cache.sync();
    const before = cache.mark();
    await epoch.bump();
    await cache.sync();
    cache.set('session:a', 'stale', before);
    expect(cache.get('session:a')).toBeUndefined();
  });

  it('uses nothing remembered while the epoch cannot be read', async () => {
    const { epoch, breakIt } = sharedEpoch();
    const cache = new IdentityCache(60_000, 100, Date.now, epoch);
    let reads = 0;
    const resolve = async () => (reads += 1);
    await cache.remember('k', resolve);
    breakIt();
    expect(await cache.remember('k', resolve)).toBe(2);
    expect(await cache.remember('k', resolve)).toBe(3);
  });

  it('shares one read of the epoch among the callers that arrive while another is under way', async () => {
    let value = 0;
    let reads = 0;
    const gates: (() => void)[] = [];
    // Each read takes the value when it is answered, as a query does when it runs.
    const epoch: RevocationEpoch = {
      read: () => {
        reads += 1;
        return new Promise((resolve) => gates.push(() => resolve(value)));
      },
      bump: async () => (value += 1),
    };
    const cache = new IdentityCache(60_000, 100, Date.now, epoch);
    const open = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      gates.shift()?.();
    };
    const first = cache.sync();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toBe(1);
    // Arrived while the first read is under way: none of these may trust it; they share the next one.
    const later = Array.from({ length: 20 }, () => cache.sync());
    await open();
    expect(await first).toBe(true);
    cache.set('k', 'cached', cache.mark());
    // A revocation by another process lands before the second read is answered.
    value += 1;
    await open();
    expect(await Promise.all(later)).toEqual(Array(20).fill(true));
    expect(reads).toBe(2);
    // The second read saw the move and forgot what was remembered.
    expect(cache.get('k')).toBeUndefined();
  });
});
