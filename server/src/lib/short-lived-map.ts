/**
 * A Map whose entries are read back only for `lifetimeMs` after they were set, and which starts over past
 * `maxSize` entries. For caches kept right by cluster notices: those go over Redis pub/sub, which does not
 * replay what a node missed while reconnecting, so a lost notice must not leave an entry wrong for longer.
 */
export class ShortLivedMap<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();

  constructor(
    private readonly lifetimeMs: number,
    private readonly maxSize: number,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > Date.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: K, value: V): void {
    if (this.entries.size >= this.maxSize) this.entries.clear();
    this.entries.set(key, { value, until: Date.now() + this.lifetimeMs });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Drops every entry whose value matches. */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
