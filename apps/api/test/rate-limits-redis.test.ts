import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createLogger } from '../src/lib/logger.ts';
import { MemoryRateLimitStore, RedisRateLimitStore } from '../src/lib/rate-limit-store.ts';
import { buildOrganization, buildUser, freePort, startTestApp, type TestApp } from './harness.ts';
import { providerBrowser } from './support/provider-browser.ts';
import { waitFor } from './support/wait.ts';

/**
 * REDIS_URL: every rate limit counts in Redis, shared by all API processes. Runs against the Redis of the
 * machine (TEST_REDIS_URL, default 127.0.0.1:6379; CI has one), under a key prefix of its own that is
 * removed afterwards.
 */
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `cp-test-${randomBytes(6).toString('hex')}:`;

async function redisReachable(): Promise<Redis | undefined> {
  const client = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return client;
  } catch {
    client.disconnect();
    return undefined;
  }
}

const redis = await redisReachable();
if (!redis) {
  console.warn(`SKIPPED: rate limits in Redis — no Redis at ${redisUrl} (start one, or set TEST_REDIS_URL)`);
}

async function keysOfThisRun(): Promise<string[]> {
  return redis ? redis.keys(`${prefix}*`) : [];
}

async function buildMember(t: TestApp) {
  const member = await buildUser(t);
  const organization = await buildOrganization(t, member.user.id);
  return { headers: { ...member.auth, currentidentity: organization.id } };
}

async function buildApiKey(t: TestApp, headers: Record<string, string>, name: string) {
  const response = await t.app.inject({ method: 'POST', url: '/api/integrations/keys', headers, payload: { name } });
  expect(response.statusCode).toBe(201);
  return response.json() as { key: string; secret: string };
}

let addresses = 0;
/** A client address of its own, so that one test's per-address counts do not touch another's. */
const freshAddress = () => {
  addresses += 1;
  return `10.9.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

afterAll(async () => {
  const keys = await keysOfThisRun();
  if (keys.length > 0) await redis?.del(...keys);
  redis?.disconnect();
});

const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
});

describe.skipIf(!redis)('rate limits shared through Redis (REDIS_URL)', () => {
  const env = {
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: prefix,
    RATE_LIMIT_PER_MINUTE: '30',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: '3',
    API_KEY_RATE_LIMIT_PER_MINUTE: '3',
  };
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    [first, second] = await Promise.all([startTestApp({ env }), startTestApp({ env })]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  it('counts the per-address limits of every instance together', async () => {
    expect(first.runtime.ctx.rateLimitStore.kind).toBe('redis');
    // A route with its own limit (RATE_LIMIT_SIGN_IN_PER_MINUTE = 3): two on the first instance, one on the second...
    for (const t of [first, first, second]) {
      const allowed = await t.app.inject({ method: 'POST', url: '/api/auth', payload: {} });
      expect(allowed.statusCode).not.toBe(429);
    }
    // ...and the budget is spent on both.
    for (const t of [first, second]) {
      const refused = await t.app.inject({ method: 'POST', url: '/api/auth', payload: {} });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['content-type']).toContain('application/problem+json');
      expect(refused.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }

    // The global limit (RATE_LIMIT_PER_MINUTE = 30) likewise, and separately from the route's own.
    const remoteAddress = freshAddress();
    for (let i = 0; i < 30; i += 1) {
      const t = i % 2 === 0 ? first : second;
      const allowed = await t.app.inject({ method: 'GET', url: '/api/users', remoteAddress });
      expect(allowed.statusCode).toBe(401);
    }
    const over = await first.app.inject({ method: 'GET', url: '/api/users', remoteAddress });
    expect(over.statusCode).toBe(429);

    // Control: an instance counting in its own memory still has its whole budget (what REDIS_URL fixes).
    const alone = await buildApp({ ...first.runtime.ctx, rateLimitStore: new MemoryRateLimitStore() });
    try {
      expect((await alone.inject({ method: 'POST', url: '/api/auth', payload: {} })).statusCode).toBe(200);
    } finally {
      await alone.close();
    }

    // Nothing readable in the keys: no client address, only this run's prefix.
    const keys = await keysOfThisRun();
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key.startsWith(`${prefix}rl:`)).toBe(true);
      expect(key).not.toContain('127.0.0.1');
    }
  });

  it('counts an API key against one budget on every instance', async () => {
    const member = await buildMember(first);
    const key = await buildApiKey(first, member.headers, 'shared');
    // A second instance over the same database (the key must verify there), with its own Redis connection.
    const other = await buildApp({ ...first.runtime.ctx, rateLimitStore: second.runtime.ctx.rateLimitStore });
    try {
      const whoami = (app: typeof other) =>
        app.inject({ method: 'GET', url: '/api/integrations/whoami', headers: basic(key.key, key.secret) });
      expect((await whoami(first.app)).statusCode).toBe(200);
      expect((await whoami(other)).statusCode).toBe(200);
      expect((await whoami(first.app)).statusCode).toBe(200);
      const refused = await whoami(other);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(refused.json().detail).toContain('API key');
      const ids = await keysOfThisRun();
      expect(ids.some((k) => k.startsWith(`${prefix}rl:api-key:`))).toBe(true);
      expect(ids.some((k) => k.includes(key.key))).toBe(false);
    } finally {
      await other.close();
    }
  });

  it("counts the account center's failed sign-ins across instances", async () => {
    const signInForm = async (t: TestApp) => {
      // The sign-in route is limited too (3 a minute): skip past it with a fresh client address.
      const start = await t.app.inject({
        method: 'POST',
        url: '/api/auth',
        payload: {},
        remoteAddress: freshAddress(),
      });
      expect(start.statusCode).toBe(200);
      const authUrl: string = start.json().auth_url;
      const device = providerBrowser(new URL(authUrl).origin);
      const page = await device.follow(authUrl);
      return { device, form: device.formOf(page.html, 'sign-in-form') };
    };
    const login = `guess-${randomBytes(4).toString('hex')}`;
    const atFirst = await signInForm(first);
    for (let i = 0; i < 10; i += 1) {
      const failed = await atFirst.device.follow(atFirst.form.action, {
        csrf: atFirst.form.csrf,
        login,
        password: `Wrong-${i}!a`,
      });
      expect(failed.html).toContain('Incorrect email/username or password');
    }
    const atSecond = await signInForm(second);
    const blocked = await atSecond.device.follow(atSecond.form.action, {
      csrf: atSecond.form.csrf,
      login,
      password: 'Another-guess1',
    });
    expect(blocked.html).toContain('Too many failed attempts');
    // Another sign-in name is not held by that count.
    const other = await atSecond.device.follow(atSecond.form.action, {
      csrf: atSecond.form.csrf,
      login: `${login}-other`,
      password: 'Another-guess1',
    });
    expect(other.html).toContain('Incorrect email/username or password');
    const keys = await keysOfThisRun();
    expect(keys.some((k) => k.startsWith(`${prefix}rl:id:account:`))).toBe(true);
    expect(keys.some((k) => k.includes(login))).toBe(false);
  });
});

/** A TCP relay to Redis that a test can cut and restore (an outage without stopping the shared Redis). */
async function redisRelay(port = 0) {
  const target = new URL(redisUrl);
  const sockets = new Set<Socket>();
  const clients = new Map<Socket, Socket>();
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    clients.set(client, upstream);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    /** Holds the commands (the connection stays open, nothing answers), as a black-holed network would. */
    stall() {
      for (const [client, upstream] of clients) {
        client.unpipe(upstream);
        client.pause();
      }
    },
    resume() {
      for (const [client, upstream] of clients) client.pipe(upstream);
    },
    async cut() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function until(condition: () => boolean, timeoutMs = 8000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!redis)('RedisRateLimitStore during an outage', () => {
  it('counts in this process while Redis is away, in Redis again once it is back, logging each change once', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info' }, { write: (chunk: string) => void lines.push(chunk) });
    let relay = await redisRelay();
    const store = new RedisRateLimitStore({
      url: `redis://127.0.0.1:${relay.port}`,
      keyPrefix: `${prefix}outage:`,
      logger,
      commandTimeoutMs: 200,
      retryAfterFailureMs: 300,
    });
    try {
      await store.connect();
      expect(store.isShared).toBe(true);
      expect((await store.hit('t', 'k', 60_000)).count).toBe(1);
      expect(await store.failures.add('account:x', 60_000, Date.now())).toBe(1);

      await relay.cut();
      await until(() => !store.isShared);
      // The fallback counts from zero in this process: every request still gets an answer and a limit.
      expect((await store.hit('t', 'k', 60_000)).count).toBe(1);
      expect((await store.hit('t', 'k', 60_000)).count).toBe(2);
      expect(await store.failures.count('account:x', 60_000, Date.now())).toBe(0);
      expect(await store.failures.add('account:x', 60_000, Date.now())).toBe(1);

      relay = await redisRelay(relay.port);
      await until(() => store.isShared);
      // Back in Redis: the shared counts carry on from where they were.
      expect((await store.hit('t', 'k', 60_000)).count).toBe(2);
      expect(await store.failures.add('account:x', 60_000, Date.now())).toBe(2);
      expect(lines.filter((l) => l.includes('Redis unreachable'))).toHaveLength(1);
      expect(lines.filter((l) => l.includes('Redis reachable again'))).toHaveLength(1);

      // An open connection that stops answering: one request sends its command and, once it times out,
      // counts in this process; the next ones go straight to this process's counters (they send nothing)
      // until the retry delay has passed.
      relay.stall();
      expect((await store.hit('t', 'stalled', 60_000)).count).toBe(1);
      expect(store.isShared).toBe(false);
      expect((await store.hit('t', 'stalled', 60_000)).count).toBe(2);
      relay.resume();
      // The held commands now reach Redis in the order they were sent. Once the retry delay is over, the
      // next command (a read, which counts nothing) goes to Redis again and succeeds.
      await waitFor('the store to use Redis again', async () => {
        await store.peek('t', 'k');
        return store.isShared;
      });
      // Redis again, where the shared count of `k` carries on.
      expect((await store.hit('t', 'k', 60_000)).count).toBe(3);
      expect(store.isShared).toBe(true);
      // Answered after every command held during the stall (one connection, in order): Redis counted only the
      // first request's command, so the second one never waited on Redis.
      expect((await store.peek('t', 'stalled')).count).toBe(1);
      expect(lines.filter((l) => l.includes('Redis unreachable'))).toHaveLength(2);
      expect(lines.filter((l) => l.includes('Redis reachable again'))).toHaveLength(2);
    } finally {
      await store.close();
      await relay.cut();
    }
  });
});

describe('rate limits when Redis is unreachable', () => {
  let t: TestApp;
  const lines: string[] = [];

  beforeAll(async () => {
    const closedPort = await freePort();
    t = await startTestApp({
      env: {
        REDIS_URL: `redis://127.0.0.1:${closedPort}`,
        REDIS_KEY_PREFIX: prefix,
        RATE_LIMIT_SIGN_IN_PER_MINUTE: '2',
        API_KEY_RATE_LIMIT_PER_MINUTE: '2',
      },
      logStream: { write: (chunk: string) => void lines.push(chunk) },
      logLevel: 'info',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('starts, answers every request and keeps counting in this process, logging the outage once', async () => {
    expect(t.runtime.ctx.rateLimitStore.kind).toBe('redis');
    expect((t.runtime.ctx.rateLimitStore as RedisRateLimitStore).isShared).toBe(false);
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    // Neither refused (fail closed) nor unlimited (fail open): the per-process limit of 2 holds.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth', payload: {} })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth', payload: {} })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth', payload: {} })).statusCode).toBe(429);

    const member = await buildMember(t);
    const key = await buildApiKey(t, member.headers, 'during-outage');
    const whoami = () =>
      t.app.inject({ method: 'GET', url: '/api/integrations/whoami', headers: basic(key.key, key.secret) });
    expect((await whoami()).statusCode).toBe(200);
    expect((await whoami()).statusCode).toBe(200);
    expect((await whoami()).statusCode).toBe(429);

    // The account center: a wrong password is still an ordinary refusal, not an error page.
    const start = await t.app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: {},
      remoteAddress: freshAddress(),
    });
    const authUrl: string = start.json().auth_url;
    const device = providerBrowser(new URL(authUrl).origin);
    const form = device.formOf((await device.follow(authUrl)).html, 'sign-in-form');
    const failed = await device.follow(form.action, { csrf: form.csrf, login: 'nobody', password: 'Wrong-1!a' });
    expect(failed.html).toContain('Incorrect email/username or password');

    const outages = lines.filter((l) => l.includes('Redis unreachable'));
    expect(outages).toHaveLength(1);
    expect(outages.join('')).not.toContain('redis://');
  });
});

describe('MemoryRateLimitStore', () => {
  it('opens a fixed window at the first hit and a new one once it ends', async () => {
    let now = 1_000_000;
    const store = new MemoryRateLimitStore(() => now);
    expect(await store.hit('s', 'k', 60_000)).toEqual({ count: 1, ttlMs: 60_000 });
    now += 59_000;
    expect(await store.hit('s', 'k', 60_000)).toEqual({ count: 2, ttlMs: 1000 });
    expect(await store.peek('s', 'k')).toEqual({ count: 2, ttlMs: 1000 });
    expect(await store.hit('other', 'k', 60_000)).toMatchObject({ count: 1 });
    now += 1000;
    expect(await store.peek('s', 'k')).toEqual({ count: 0, ttlMs: 0 });
    expect(await store.hit('s', 'k', 60_000)).toEqual({ count: 1, ttlMs: 60_000 });
  });
});
