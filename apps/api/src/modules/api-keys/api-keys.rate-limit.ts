import { MemoryRateLimitStore, type RateLimitStore } from '../../lib/rate-limit-store.ts';

const WINDOW_MS = 60_000;
const SCOPE = 'api-key';

export type ApiKeyRateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface ApiKeyRateLimiter {
  /** Counts one request of the key; answers how many seconds to wait when it is over the limit. */
  consume(apiKeyId: string): Promise<ApiKeyRateDecision>;
}

/**
 * Per-key fixed one-minute windows in the rate-limit store (process memory, or Redis shared by every API
 * process when REDIS_URL is set). Counted after the key is verified, so requests with a wrong secret never
 * use up an integrator's allowance; unauthenticated traffic is still held by the global per-address limit.
 */
export function createApiKeyRateLimiter(
  limitPerMinute: number,
  store: RateLimitStore = new MemoryRateLimitStore(),
): ApiKeyRateLimiter {
  return {
    async consume(apiKeyId) {
      const { count, ttlMs } = await store.hit(SCOPE, apiKeyId, WINDOW_MS);
      if (count <= limitPerMinute) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
    },
  };
}

const limiters = new WeakMap<object, ApiKeyRateLimiter>();

/** The limiter of one running application (tests start several in one process, each with its own limit). */
export function apiKeyRateLimiterFor(ctx: {
  config: { apiKeyRateLimitPerMinute: number };
  rateLimitStore: RateLimitStore;
}): ApiKeyRateLimiter {
  let limiter = limiters.get(ctx);
  if (!limiter) {
    limiter = createApiKeyRateLimiter(ctx.config.apiKeyRateLimitPerMinute, ctx.rateLimitStore);
    limiters.set(ctx, limiter);
  }
  return limiter;
}
