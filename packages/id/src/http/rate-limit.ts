/**
 * Where failed attempts are counted: in this process (`MemoryFailureStore`, the embedded default) or in a
 * store every process shares (the API passes its Redis-backed one when REDIS_URL is set), so that N
 * processes behind a load balancer do not give a password guesser N times the attempts.
 * Keys arrive namespaced by the limiter (`account:…`, `ip:…`); a shared store should not keep them in clear
 * (they hold sign-in names and addresses).
 */
export interface FailureStore {
  /** Failures of `key` recorded within `windowMs` before `now`. */
  count(key: string, windowMs: number, now: number): Promise<number>;
  /** Records one failure of `key` at `now`; answers the failures within the window, this one included. */
  add(key: string, windowMs: number, now: number): Promise<number>;
  /** Forgets the failures of `key` (after a success). */
  clear(key: string): Promise<void>;
}

const MAX_KEYS = 100_000;

/** Failures of one process, as timestamps per key (a sliding window). */
export class MemoryFailureStore implements FailureStore {
  readonly #failures = new Map<string, number[]>();

  #recent(key: string, windowMs: number, now: number): number[] {
    const list = (this.#failures.get(key) ?? []).filter((t) => now - t < windowMs);
    if (list.length) this.#failures.set(key, list);
    else this.#failures.delete(key);
    return list;
  }

  async count(key: string, windowMs: number, now: number): Promise<number> {
    return this.#recent(key, windowMs, now).length;
  }

  async add(key: string, windowMs: number, now: number): Promise<number> {
    const list = this.#recent(key, windowMs, now);
    list.push(now);
    this.#failures.set(key, list);
    if (this.#failures.size > MAX_KEYS) {
      for (const other of [...this.#failures.keys()]) this.#recent(other, windowMs, now);
    }
    return list.length;
  }

  async clear(key: string): Promise<void> {
    this.#failures.delete(key);
  }
}

/**
 * Failed sign-in (or current-password) attempts per key over a sliding window. Counted in this process by
 * default; in the shared store given to the account center otherwise (see `FailureStore`).
 */
export class FailureLimiter {
  constructor(
    readonly limit: number,
    readonly windowMs: number,
    /** Namespace of this limiter's keys in the store (two limiters may share one store). */
    readonly name: string,
    readonly store: FailureStore = new MemoryFailureStore(),
  ) {}

  async isBlocked(key: string, now = Date.now()): Promise<boolean> {
    return (await this.store.count(`${this.name}:${key}`, this.windowMs, now)) >= this.limit;
  }

  async recordFailure(key: string, now = Date.now()): Promise<void> {
    await this.store.add(`${this.name}:${key}`, this.windowMs, now);
  }

  async reset(key: string): Promise<void> {
    await this.store.clear(`${this.name}:${key}`);
  }
}
