/**
 * Failed sign-in attempts, counted in memory per key over a sliding window. Kept in memory on purpose:
 * a per-process limit is enough to stop online guessing at the account center's scale, and it leaves no
 * rows to clean up. Several processes each count on their own (the effective limit is multiplied).
 */
export class FailureLimiter {
  readonly #failures = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  #recent(key: string, now: number): number[] {
    const list = (this.#failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length) this.#failures.set(key, list);
    else this.#failures.delete(key);
    return list;
  }

  isBlocked(key: string, now = Date.now()): boolean {
    return this.#recent(key, now).length >= this.limit;
  }

  recordFailure(key: string, now = Date.now()): void {
    const list = this.#recent(key, now);
    list.push(now);
    this.#failures.set(key, list);
    if (this.#failures.size > 100_000) this.#sweep(now);
  }

  reset(key: string): void {
    this.#failures.delete(key);
  }

  #sweep(now: number): void {
    for (const key of [...this.#failures.keys()]) this.#recent(key, now);
  }
}
