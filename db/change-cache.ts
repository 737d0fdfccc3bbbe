import { logger } from "@/lib/logger";
import { type ChangeChannel, onChange } from "./change-feed";
import type { Database } from "./client";

export interface ChangeCacheOptions<V> {
  /** Where changes to the cached records are published. */
  channel: ChangeChannel;
  /** A safety net: an entry is read again after this long even if no change was heard. */
  ttlMs: number;
  maxEntries: number;
  /** Whether a change published with this payload (a record's id) concerns the value; "*" concerns every one. */
  concerns(value: V, payload: string): boolean;
}

/**
 * Records read from one database, kept in this process for a short while and dropped as soon as a change to them
 * is published on the channel, here or on any other instance. Nothing is kept until the feed is listening, and a
 * value read while a change was heard is not kept, so a change is never missed.
 */
export class ChangeCache<V> {
  private readonly entries = new Map<string, { value: V; storedAt: number }>();
  /** Reads under way, shared by the requests that want the same key meanwhile (until a change is heard). */
  private readonly loading = new Map<string, Promise<V | undefined>>();
  private generation = 0;
  private listening: Promise<boolean> | undefined;

  constructor(
    private readonly db: Database,
    private readonly options: ChangeCacheOptions<V>,
  ) {}

  private readonly drop = (payload: string) => {
    this.generation++;
    this.loading.clear();
    if (payload === "*") this.entries.clear();
    else
      for (const [key, entry] of this.entries)
        if (this.options.concerns(entry.value, payload)) this.entries.delete(key);
  };

  /** The value kept under the key, if it is younger than the TTL. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (performance.now() - entry.storedAt > this.options.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** The value kept under the key, or else what `read` finds (undefined: nothing, and nothing is kept). */
  load(key: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const cached = this.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    let loading = this.loading.get(key);
    if (!loading) {
      const started = this.readAndKeep(key, read);
      loading = started.finally(() => {
        if (this.loading.get(key) === loading) this.loading.delete(key);
      });
      this.loading.set(key, loading);
    }
    return loading;
  }

  /** Starts `load` in the background unless the key is kept or being read; a failure is logged once. */
  prefetch(key: string, read: () => Promise<V | undefined>) {
    if (this.get(key) !== undefined || this.loading.has(key)) return;
    this.load(key, read).catch((error: unknown) => {
      logger.warn("not read for the cache", { channel: this.options.channel, key, err: error });
    });
  }

  private async readAndKeep(key: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const listening = await this.listen();
    const generation = this.generation;
    const value = await read();
    if (value !== undefined && listening && generation === this.generation) this.store(key, value);
    return value;
  }

  private store(key: string, value: V) {
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, storedAt: performance.now() });
  }

  /** Whether the feed listens; when it cannot, values are read every time and the next load tries again. */
  private listen(): Promise<boolean> {
    this.listening ??= onChange(this.db, this.options.channel, this.drop).then(
      () => true,
      (error: unknown) => {
        this.listening = undefined;
        logger.warn("change feed not listening; reading without a cache", {
          channel: this.options.channel,
          err: error,
        });
        return false;
      },
    );
    return this.listening;
  }
}

/** One cache per database handle, so tests with databases of their own never share entries. */
export function cachePerDatabase<V>(options: ChangeCacheOptions<V>): (db: Database) => ChangeCache<V> {
  const caches = new WeakMap<Database, ChangeCache<V>>();
  return (db) => {
    let cache = caches.get(db);
    if (!cache) {
      cache = new ChangeCache(db, options);
      caches.set(db, cache);
    }
    return cache;
  };
}
