const WINDOW_MS = 60_000;

export interface ApiKeyRateLimiter {
  /** Counts one request of the key; answers how many seconds to wait when it is over the limit. */
  consume(apiKeyId: string, now?: number): { allowed: true } | { allowed: false; retryAfterSeconds: number };
}

/**
 * Per-key fixed one-minute windows, in memory (one API process). Counted after the key is verified,
 * so requests with a wrong secret never use up an integrator's allowance; unauthenticated traffic is
 * still held by the global per-address limit.
 */
export function createApiKeyRateLimiter(limitPerMinute: number): ApiKeyRateLimiter {
  const windows = new Map<string, { startedAt: number; count: number }>();
  let lastSweep = 0;
  return {
    consume(apiKeyId, now = Date.now()) {
      if (now - lastSweep > WINDOW_MS) {
        lastSweep = now;
        for (const [id, window] of windows) if (now - window.startedAt >= WINDOW_MS) windows.delete(id);
      }
      let window = windows.get(apiKeyId);
      if (!window || now - window.startedAt >= WINDOW_MS) {
        window = { startedAt: now, count: 0 };
        windows.set(apiKeyId, window);
      }
      window.count += 1;
      if (window.count <= limitPerMinute) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.startedAt + WINDOW_MS - now) / 1000)) };
    },
  };
}

const limiters = new WeakMap<object, ApiKeyRateLimiter>();

/** The limiter of one running application (tests start several in one process, each with its own limit). */
export function apiKeyRateLimiterFor(ctx: { config: { apiKeyRateLimitPerMinute: number } }): ApiKeyRateLimiter {
  let limiter = limiters.get(ctx);
  if (!limiter) {
    limiter = createApiKeyRateLimiter(ctx.config.apiKeyRateLimitPerMinute);
    limiters.set(ctx, limiter);
  }
  return limiter;
}
