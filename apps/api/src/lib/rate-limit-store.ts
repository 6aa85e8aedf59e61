import { type FailureStore, MemoryFailureStore } from '@cp/id/failure-store';
import { Redis } from 'ioredis';
import { randomToken, sha256 } from './crypto.ts';
import type { Logger } from './logger.ts';

/** One fixed window of a counter: hits so far and the milliseconds until the window ends. */
export interface WindowCount {
  count: number;
  ttlMs: number;
}

/**
 * The counters behind every rate limit: the per-address limits (@fastify/rate-limit), the per-API-key limit
 * and the account center's failed-attempt limits. In process memory by default (`npm start`, one process);
 * in Redis when REDIS_URL is set, so that every API process counts against the same budget.
 */
export interface RateLimitStore {
  readonly kind: 'memory' | 'redis';
  /** Counts one hit of `key` in a fixed window that starts at the key's first hit. */
  hit(scope: string, key: string, windowMs: number): Promise<WindowCount>;
  /** The current window of `key` without counting a hit (count 0 when none is open). */
  peek(scope: string, key: string): Promise<WindowCount>;
  /** Sliding-window failure counts for the account center (`@cp/id` FailureLimiter). */
  readonly failures: FailureStore;
  close(): Promise<void>;
}

const SWEEP_INTERVAL_MS = 60_000;

/** Fixed windows in this process. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly kind = 'memory';
  readonly failures: FailureStore = new MemoryFailureStore();
  readonly #windows = new Map<string, { endsAt: number; count: number }>();
  #lastSweep = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  async hit(scope: string, key: string, windowMs: number): Promise<WindowCount> {
    const now = this.clock();
    if (now - this.#lastSweep > SWEEP_INTERVAL_MS) {
      this.#lastSweep = now;
      for (const [k, w] of this.#windows) if (w.endsAt <= now) this.#windows.delete(k);
    }
    const id = `${scope}\u0000${key}`;
    let window = this.#windows.get(id);
    if (!window || window.endsAt <= now) {
      window = { endsAt: now + windowMs, count: 0 };
      this.#windows.set(id, window);
    }
    window.count += 1;
    return { count: window.count, ttlMs: window.endsAt - now };
  }

  async peek(scope: string, key: string): Promise<WindowCount> {
    const now = this.clock();
    const window = this.#windows.get(`${scope}\u0000${key}`);
    if (!window || window.endsAt <= now) return { count: 0, ttlMs: 0 };
    return { count: window.count, ttlMs: window.endsAt - now };
  }

  async close(): Promise<void> {
    this.#windows.clear();
  }
}

// INCR and PEXPIRE in one script (atomic): the first hit opens the window; a key that somehow lost its expiry
// gets one again instead of counting forever.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

interface ScriptedRedis extends Redis {
  cpRateLimitHit(key: string, windowMs: number): Promise<[number, number]>;
}

export interface RedisRateLimitStoreOptions {
  url: string;
  /** Prepended to every key (REDIS_KEY_PREFIX, default `cp:`); keys are `<prefix>rl:<scope>:<hash>`. */
  keyPrefix: string;
  logger: Logger;
  /** How long one Redis command may take before the request falls back to this process's counters. */
  commandTimeoutMs?: number;
  /** After a failed or slow command, how long requests use this process's counters before trying Redis again. */
  retryAfterFailureMs?: number;
}

/**
 * Counters in Redis, shared by every process. Keys hold a SHA-256 of the counted value (client addresses,
 * API key ids, sign-in names): nothing personal or secret is stored in clear, and no value is stored at all
 * besides counts and timestamps.
 *
 * Redis unreachable: every limiter falls back to this process's memory (the limits count per process, as
 * without Redis) instead of refusing everyone (fail closed would lock every user out of sign-in during an
 * outage) or letting everything through (fail open would hand a password guesser unlimited attempts). The
 * outage is logged once when it starts and once when it ends, never per request. Commands are not queued
 * while disconnected, so a request never waits for a reconnection.
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly kind = 'redis';
  readonly failures: FailureStore;
  readonly #client: ScriptedRedis;
  readonly #prefix: string;
  readonly #logger: Logger;
  readonly #retryAfterFailureMs: number;
  readonly #fallback = new MemoryRateLimitStore();
  #isDown = false;
  #isClosed = false;
  /** Until when (epoch ms) requests skip Redis after a command failed or timed out on an open connection. */
  #skipUntil = 0;

  constructor(options: RedisRateLimitStoreOptions) {
    this.#prefix = `${options.keyPrefix}rl:`;
    this.#logger = options.logger;
    this.#retryAfterFailureMs = options.retryAfterFailureMs ?? 5000;
    this.#client = new Redis(options.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout: options.commandTimeoutMs ?? 1000,
      // Keep trying in the background (the fallback serves meanwhile), at most every 5 s.
      retryStrategy: (attempt) => Math.min(attempt * 200, 5000),
    }) as ScriptedRedis;
    this.#client.defineCommand('cpRateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.#client.on('error', (err: Error) => this.#markDown(err));
    this.#client.on('ready', () => {
      this.#skipUntil = 0;
      this.#markUp();
    });
    this.failures = this.#failureStore();
  }

  /** Whether counts are shared right now (false while Redis is unreachable). */
  get isShared(): boolean {
    return this.#client.status === 'ready' && !this.#isDown && Date.now() >= this.#skipUntil;
  }

  /**
   * Connects, waiting at most `timeoutMs`. An unreachable Redis does not stop the start: it is logged, the
   * limits count in this process, and the connection is retried in the background.
   */
  async connect(timeoutMs = 3000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([this.#client.connect().catch((err: Error) => this.#markDown(err)), gaveUp]);
    clearTimeout(timer);
    if (this.#client.status !== 'ready') this.#markDown(new Error(`no connection within ${timeoutMs} ms`));
  }

  async hit(scope: string, key: string, windowMs: number): Promise<WindowCount> {
    return this.#shared(
      async () => {
        const [count, ttlMs] = await this.#client.cpRateLimitHit(this.#key(scope, key), windowMs);
        return { count: Number(count), ttlMs: Number(ttlMs) };
      },
      () => this.#fallback.hit(scope, key, windowMs),
    );
  }

  async peek(scope: string, key: string): Promise<WindowCount> {
    return this.#shared(
      async () => {
        const redisKey = this.#key(scope, key);
        const [count, ttlMs] = await Promise.all([this.#client.get(redisKey), this.#client.pttl(redisKey)]);
        return count === null ? { count: 0, ttlMs: 0 } : { count: Number(count), ttlMs: Math.max(0, ttlMs) };
      },
      () => this.#fallback.peek(scope, key),
    );
  }

  async close(): Promise<void> {
    this.#isClosed = true;
    if (this.#client.status === 'ready') {
      await this.#client.quit().catch(() => this.#client.disconnect());
    } else {
      this.#client.disconnect();
    }
    await this.#fallback.close();
  }

  #key(scope: string, key: string): string {
    return `${this.#prefix}${scope}:${sha256(key)}`;
  }

  /** Account center keys arrive as `<limiter>:<value>`: the limiter stays readable, the value is hashed. */
  #failureKey(key: string): string {
    const separator = key.indexOf(':');
    return separator > 0 ? this.#key(`id:${key.slice(0, separator)}`, key.slice(separator + 1)) : this.#key('id', key);
  }

  #failureStore(): FailureStore {
    const memory = this.#fallback.failures;
    return {
      count: (key, windowMs, now) =>
        this.#shared(
          () => this.#client.zcount(this.#failureKey(key), `(${now - windowMs}`, '+inf'),
          () => memory.count(key, windowMs, now),
        ),
      add: (key, windowMs, now) =>
        this.#shared(
          async () => {
            const redisKey = this.#failureKey(key);
            // One MULTI (atomic): drop failures older than the window, add this one, keep the key no longer
            // than the window, count.
            const results = await this.#client
              .multi()
              .zremrangebyscore(redisKey, '-inf', now - windowMs)
              .zadd(redisKey, now, `${now}:${randomToken(6)}`)
              .pexpire(redisKey, windowMs)
              .zcard(redisKey)
              .exec();
            const failed = results?.find(([err]) => err)?.[0];
            if (!results || failed) throw failed ?? new Error('Redis transaction aborted');
            return Number(results[3]?.[1]);
          },
          () => memory.add(key, windowMs, now),
        ),
      clear: (key) =>
        this.#shared(
          async () => {
            await this.#client.del(this.#failureKey(key));
          },
          () => memory.clear(key),
        ),
    };
  }

  /** Runs `shared` on Redis, or `local` (this process's counters) while Redis is unreachable. */
  async #shared<T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    if (this.#client.status !== 'ready') {
      this.#markDown(new Error(`connection ${this.#client.status}`));
      return local();
    }
    // A connection that looks open but does not answer (a black-holed network) would otherwise make every
    // request wait for the command timeout.
    if (Date.now() < this.#skipUntil) return local();
    try {
      const result = await shared();
      if (this.#isDown) this.#markUp();
      return result;
    } catch (err) {
      this.#skipUntil = Date.now() + this.#retryAfterFailureMs;
      this.#markDown(err as Error);
      return local();
    }
  }

  #markDown(err: Error): void {
    if (this.#isDown || this.#isClosed) return;
    this.#isDown = true;
    // The message only (no URL or options: REDIS_URL may carry a password).
    this.#logger.warn(
      { redisError: err.message },
      'Redis unreachable: rate limits count in this process until it is back',
    );
  }

  #markUp(): void {
    if (!this.#isDown || this.#isClosed) return;
    this.#isDown = false;
    this.#logger.info('Redis reachable again: rate limits are shared by every process');
  }
}

/** The store the configuration asks for: Redis when REDIS_URL is set (connected, or retrying), else memory. */
export async function createRateLimitStore(
  config: { redis: { url: string | undefined; keyPrefix: string } },
  logger: Logger,
): Promise<RateLimitStore> {
  if (!config.redis.url) return new MemoryRateLimitStore();
  const store = new RedisRateLimitStore({ url: config.redis.url, keyPrefix: config.redis.keyPrefix, logger });
  await store.connect();
  return store;
}

type StoreCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A @fastify/rate-limit store over a `RateLimitStore` (its `store` option takes a class). The global limit
 * and each route's own limit (`config.rateLimit`) count under separate keys, as the plugin's own stores do.
 */
export function fastifyRateLimitStore(store: RateLimitStore) {
  return class FastifyRateLimitStore {
    readonly #scope: string;

    constructor(_options?: unknown, scope = 'http') {
      this.#scope = scope;
    }

    incr(key: string, callback: StoreCallback, timeWindow: number): void {
      store.hit(this.#scope, key, timeWindow).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (err: Error) => callback(err),
      );
    }

    read(key: string, callback: StoreCallback): void {
      store.peek(this.#scope, key).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (err: Error) => callback(err),
      );
    }

    /** The plugin passes the route's merged options, with the route under `routeInfo`. */
    child(routeOptions: unknown): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      const name = route?.url ? `${String(route.method)} ${String(route.url)}` : 'custom';
      return new FastifyRateLimitStore(undefined, `http:${name}`);
    }
  };
}
