/** The shared count of changes that may revoke something, kept by the database (see revocation.repository.ts). */
export interface RevocationEpoch {
  /** The current value, as every process sees it. */
  read(): Promise<number>;
  /** Moves it on and answers the new value. */
  bump(): Promise<number>;
}

/**
 * A short-lived in-memory cache of who is calling (sessions, API tokens, ingest keys, and answers
 * derived only from them, such as the current user), so a request does not have to read its
 * credential from the database each time.
 *
 * A revocation made by any server process is honoured by every process before the answer to it
 * leaves. In this process, every write request clears the cache (`revoke`). With several processes
 * on one PostgreSQL server, `revoke` also moves a shared epoch on (after the change is committed,
 * before its answer is sent), and every use of the cache first reads that epoch (`sync`): a cache
 * that has not seen the current value forgets everything first. An embedded database belongs to one
 * process, which needs no epoch. An entry also lives at most `ttlMs`, which bounds what a change made
 * outside any server process (a script) can leave behind.
 */
export class IdentityCache {
  private readonly entries = new Map<string, { value: unknown; storedAt: number }>();
  private generation = 0;
  /** The newest epoch seen; null before the first read. */
  private known: number | null = null;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 20_000,
    private readonly now: () => number = Date.now,
    /** The epoch shared by the processes of one database; null when this process is alone. */
    private readonly epoch: RevocationEpoch | null = null,
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

  /**
   * Catches up with the revocations of every process: reads the shared epoch and forgets
   * everything when it has moved since the last read. Answers false when the epoch cannot be read;
   * nothing cached may be used then.
   */
  async sync(): Promise<boolean> {
    if (!this.enabled || !this.epoch) return true;
    // A read already under way may have started before this caller arrived, so it may miss a
    // revocation whose answer has left since: the caller waits for the next read instead. Every
    // caller that arrives meanwhile shares that next read, so many concurrent requests cost two
    // reads of the epoch, not one each.
    if (!this.nextRead) {
      const after = this.currentRead ?? Promise.resolve();
      this.nextRead = after.then(() => {
        this.nextRead = null;
        const read = this.readEpoch();
        const current = read.then(() => undefined);
        this.currentRead = current;
        void current.then(() => {
          if (this.currentRead === current) this.currentRead = null;
        });
        return read;
      });
    }
    return this.nextRead;
  }

  /** The reads of the epoch: the one under way, and the one callers arriving meanwhile wait for. */
  private currentRead: Promise<void> | null = null;
  private nextRead: Promise<boolean> | null = null;

  private async readEpoch(): Promise<boolean> {
    try {
      this.observe(await this.epoch!.read());
      return true;
    } catch {
      return false;
    }
  }

  /**
   * After a change that may revoke a credential or a permission has been committed, and before its
   * answer leaves: tells every process (moves the shared epoch on), then forgets here. The epoch is
   * moved even when this process caches nothing, for the processes that do. Throws when the epoch
   * cannot be moved (after forgetting here all the same).
   */
  async revoke(): Promise<void> {
    try {
      if (this.epoch) this.observe(await this.epoch.bump().catch(() => this.epoch!.bump()));
    } finally {
      // After the bump: whatever this process read before it may predate the change.
      this.invalidate();
    }
  }

  /** The value under `key`, from memory when it is current, else from `resolve` (and remembered). */
  async remember<T>(key: string, resolve: () => Promise<T>): Promise<T> {
    if (!this.enabled || !(await this.sync())) return resolve();
    const hit = this.get<T>(key);
    if (hit !== undefined) return hit;
    const mark = this.mark();
    const value = await resolve();
    this.set(key, value, mark);
    return value;
  }

  private observe(value: number): void {
    if (this.known !== null && value <= this.known) return;
    this.invalidate();
    this.known = value;
  }

  get size(): number {
    return this.entries.size;
  }
}
