/**
 * A short-lived in-memory cache of who is calling (and of answers derived only from that, such
 * as the current user), so a signed-in request does not have to read the session from the
 * database each time.
 *
 * It is never stale for long and never stale after a change made here: every write request in
 * this process clears it (`invalidate`), and on a PostgreSQL server every other process is told to
 * clear its own through NOTIFY. An entry also lives at most `ttlMs`, which bounds what a change
 * made outside any server process (a script, the CLI) can leave behind.
 */
export class IdentityCache {
  private readonly entries = new Map<string, { value: unknown; storedAt: number }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 20_000,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** A marker taken before reading the database; `set` with an old marker is ignored. */
  mark(): number {
    return this.generation;
  }

  get<T>(key: string): T | undefined {
    if (!this.enabled) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  /** Stores a value read after `mark`; dropped when anything was invalidated in between. */
  set(key: string, value: unknown, mark: number): void {
    if (!this.enabled || mark !== this.generation) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, storedAt: this.now() });
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
