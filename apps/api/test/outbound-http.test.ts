import type { LookupAddress } from 'node:dns';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/env.ts';
import {
  limitedResolveAll,
  literalNonPublicHost,
  nonPublicRange,
  OutboundError,
  type OutboundPolicy,
  outboundRequest,
  type ResolveAll,
} from '../src/lib/outbound-http.ts';

describe('nonPublicRange: IPv4', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.0', 'shared'],
    ['100.127.255.255', 'shared'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', 'reserved'],
    ['192.168.0.1', 'private'],
    ['192.168.255.255', 'private'],
    ['198.18.0.0', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
  ])('%s is %s', (address, range) => {
    expect(nonPublicRange(address)).toBe(range);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.255',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
  ])('%s is public (edge of a range)', (address) => {
    expect(nonPublicRange(address)).toBeNull();
  });
});

describe('nonPublicRange: IPv6', () => {
  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['[::1]', 'loopback'],
    // IPv4-mapped: a dual-stack socket reaches the IPv4 address.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:0.0.0.0', 'unspecified'],
    // NAT64 and 6to4 forward to the embedded IPv4 address.
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::169.254.169.254', 'link-local'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['fc00::1', 'private'],
    ['fdff:ffff:ffff::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001::1', 'reserved'], // Teredo
    ['2001:1ff::1', 'reserved'],
    ['::127.0.0.1', 'reserved'], // IPv4-compatible (deprecated)
    ['100::1', 'reserved'], // discard
    ['64:ff9b:1::1', 'reserved'],
    ['5f00::1', 'reserved'],
    ['4000::1', 'reserved'],
  ])('%s is %s', (address, range) => {
    expect(nonPublicRange(address)).toBe(range);
  });

  it.each([
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:81c::200e',
    '2001:200::1',
    '3fff:1000::1',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (address) => {
    expect(nonPublicRange(address)).toBeNull();
  });

  it('fails closed on anything that is not an IP address', () => {
    for (const text of ['example.com', '', '1.2.3', '1.2.3.256', '::ffff:1.2.3.256', 'fe80::1::2', '12345::1']) {
      expect(nonPublicRange(text), text).toBe('reserved');
    }
  });
});

describe('literalNonPublicHost', () => {
  it('sees through the spellings URL parsing normalizes, and localhost names', () => {
    const cases: [string, string | null][] = [
      ['http://127.0.0.1:8080/hook', 'loopback'],
      ['http://0x7f000001/', 'loopback'],
      ['http://2130706433/', 'loopback'],
      ['http://127.1/', 'loopback'],
      ['http://[::1]:3000/', 'loopback'],
      ['http://[::ffff:127.0.0.1]/', 'loopback'],
      ['http://169.254.169.254/latest/meta-data/', 'link-local'],
      ['http://LOCALHOST/', 'loopback'],
      ['http://api.localhost./x', 'loopback'],
      ['https://10.1.2.3/', 'private'],
      ['https://hooks.example.com/in', null],
      ['https://8.8.8.8/', null],
      ['https://localhost.example.com/', null],
    ];
    for (const [url, range] of cases) expect(literalNonPublicHost(new URL(url)), url).toBe(range);
  });
});

describe('OUTBOUND_ALLOW_PRIVATE_NETWORKS', () => {
  const production = { NODE_ENV: 'production', MASTER_KEY: Buffer.alloc(32, 1).toString('base64') };
  it('blocks in production and allows in development and tests by default; either can be overridden', () => {
    expect(loadConfig({}).outbound.allowPrivateNetworks).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).outbound.allowPrivateNetworks).toBe(true);
    expect(loadConfig(production).outbound.allowPrivateNetworks).toBe(false);
    expect(loadConfig({ ...production, OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' }).outbound.allowPrivateNetworks).toBe(
      true,
    );
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'false' }).outbound.allowPrivateNetworks).toBe(false);
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: '' }).outbound.allowPrivateNetworks).toBe(true);
  });

  it("resolves at most half of libuv's thread pool of host names at once, at least one", () => {
    expect(loadConfig({}).outbound.lookupsAtOnce).toBe(2);
    expect(loadConfig({ UV_THREADPOOL_SIZE: '8' }).outbound.lookupsAtOnce).toBe(4);
    expect(loadConfig({ UV_THREADPOOL_SIZE: '1' }).outbound.lookupsAtOnce).toBe(1);
    expect(() => loadConfig({ UV_THREADPOOL_SIZE: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'maybe' })).toThrow(ConfigError);
    expect(() => loadConfig({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'maybe' })).toThrow(/OUTBOUND_ALLOW_PRIVATE_NETWORKS/);
  });
});

describe('outboundRequest', () => {
  let server: Server;
  let port: number;
  const received: { url: string; headers: IncomingHttpHeaders }[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      received.push({ url: request.url ?? '', headers: request.headers });
      if (request.url === '/big') return void response.writeHead(200).end('x'.repeat(5000));
      if (request.url === '/redirect') return void response.writeHead(302, { location: 'http://127.0.0.1/' }).end();
      if (request.url === '/hang') return; // never answers
      response.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const blocked: OutboundPolicy = { allowPrivateNetworks: false, allowHttp: true };
  const open: OutboundPolicy = { allowPrivateNetworks: true, allowHttp: true };
  const get = { method: 'GET' as const, timeoutMs: 2000, maxBytes: 1000 };
  /** A resolver that answers from a table and counts its calls (no real DNS is asked). */
  const fakeDns = (table: Record<string, string[]>) => {
    const calls: string[] = [];
    const resolveAll: ResolveAll = async (hostname) => {
      calls.push(hostname);
      return (table[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
    return { calls, resolveAll };
  };
  const refusal = async (promise: Promise<unknown>) => {
    const err = await promise.then(
      () => expect.unreachable('the request should have failed'),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OutboundError);
    return err as OutboundError;
  };

  it('refuses literal loopback, mapped and localhost destinations before connecting', async () => {
    const before = received.length;
    const dns = fakeDns({});
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://0x7f000001:${port}/`,
      `http://localhost:${port}/`,
    ]) {
      const err = await refusal(outboundRequest(url, { ...blocked, resolveAll: dns.resolveAll }, get));
      expect(err.code, url).toBe('ADDRESS_NOT_PUBLIC');
      expect(err.message).toBe("Refused: the host's address is not public (loopback)");
    }
    expect(dns.calls).toEqual([]);
    expect(received.length).toBe(before);
  });

  it('refuses a name when any one of its addresses is not public', async () => {
    const before = received.length;
    const dns = fakeDns({
      'rebind.test': ['127.0.0.1'],
      'mixed.test': ['93.184.216.34', '10.0.0.7'],
      'metadata.test': ['::ffff:169.254.169.254'],
    });
    const policy = { ...blocked, resolveAll: dns.resolveAll };
    expect((await refusal(outboundRequest(`http://rebind.test:${port}/`, policy, get))).message).toMatch(/loopback/);
    expect((await refusal(outboundRequest(`http://mixed.test:${port}/`, policy, get))).message).toMatch(/private/);
    expect((await refusal(outboundRequest(`http://metadata.test:${port}/`, policy, get))).message).toMatch(
      /link-local/,
    );
    expect(received.length).toBe(before);
  });

  it('connects to the address it resolved once, keeping the name in Host (pinned: no second lookup)', async () => {
    const dns = fakeDns({ 'receiver.test': ['127.0.0.1'] });
    const response = await outboundRequest(
      `http://receiver.test:${port}/pinned?x=1`,
      { ...open, resolveAll: dns.resolveAll },
      get,
    );
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('hello');
    expect(dns.calls).toEqual(['receiver.test']);
    expect(received.at(-1)).toMatchObject({ url: '/pinned?x=1', headers: { host: `receiver.test:${port}` } });
  });

  it('names the host in TLS (SNI) while connecting to the pinned address', async () => {
    const names: string[] = [];
    const tls = createTlsServer({
      SNICallback: (servername, callback) => {
        names.push(servername);
        callback(new Error('no certificate here'));
      },
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      const dns = fakeDns({ 'issuer.test': ['127.0.0.1'] });
      const tlsPort = (tls.address() as AddressInfo).port;
      const err = await refusal(
        outboundRequest(`https://issuer.test:${tlsPort}/`, { ...open, resolveAll: dns.resolveAll }, get),
      );
      expect(err.code).toBe('CONNECTION_FAILED');
      expect(names).toEqual(['issuer.test']);
    } finally {
      await new Promise((resolve) => tls.close(resolve));
    }
  });

  it('keeps the other limits: http only when allowed, no redirects, a size cap, a time limit', async () => {
    const err = await refusal(outboundRequest(`http://127.0.0.1:${port}/`, { ...open, allowHttp: false }, get));
    expect(err).toMatchObject({ code: 'URL_NOT_ALLOWED', message: 'Refusing to fetch http: URL' });
    expect((await outboundRequest(`http://127.0.0.1:${port}/redirect`, open, get)).status).toBe(302);
    expect(await refusal(outboundRequest(`http://127.0.0.1:${port}/big`, open, get))).toMatchObject({
      code: 'TOO_LARGE',
    });
    expect(
      await refusal(outboundRequest(`http://127.0.0.1:${port}/hang`, open, { ...get, timeoutMs: 200 })),
    ).toMatchObject({ code: 'TIMEOUT', message: 'Timed out after 1 s' });
    const closed = await refusal(outboundRequest('http://127.0.0.1:1/', open, get));
    expect(closed).toMatchObject({ code: 'CONNECTION_FAILED', message: 'Connection failed (ECONNREFUSED)' });
  });

  it('sends a POST body with its length and can discard the answer unread', async () => {
    const response = await outboundRequest(`http://127.0.0.1:${port}/post`, open, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"é":1}',
      timeoutMs: 2000,
      maxBytes: 0,
    });
    expect(response).toMatchObject({ status: 200 });
    expect(response.body.length).toBe(0);
    // Bytes, not characters: 'é' is two bytes in UTF-8.
    expect(received.at(-1)?.headers).toMatchObject({ 'content-length': '8', 'content-type': 'application/json' });
  });

  it('drops a lookup still waiting its turn when its request times out', async () => {
    // A DNS server that answers only when told to, one lookup at a time (as the system resolver is limited).
    const asked: string[] = [];
    let answerLate = () => {};
    const resolveAll = limitedResolveAll(
      (hostname) => {
        asked.push(hostname);
        return new Promise<LookupAddress[]>((_resolve, reject) => {
          answerLate = () => reject(Object.assign(new Error('timed out'), { code: 'ETIMEOUT' }));
        });
      },
      1,
      8,
    );
    const quick = { ...get, timeoutMs: 100 };
    const [first, second] = await Promise.all([
      refusal(outboundRequest('http://never-1.test/', { ...open, resolveAll }, quick)),
      refusal(outboundRequest('http://never-2.test/', { ...open, resolveAll }, quick)),
    ]);
    expect(first.code).toBe('TIMEOUT');
    expect(second.code).toBe('TIMEOUT');
    // The first lookup ends long after its request: the place it frees goes to no one.
    answerLate();
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toEqual(['never-1.test']);
  });
});

describe('limitedResolveAll', () => {
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  const address: LookupAddress = { address: '93.184.216.34', family: 4 };

  it('resolves at most so many names at once, the rest in order; past the queue, or once their request ended, EAI_AGAIN', async () => {
    const asked: Array<{ hostname: string; answer(): void; fail(): void }> = [];
    const limited = limitedResolveAll(
      (hostname) =>
        new Promise<LookupAddress[]>((resolve, reject) =>
          asked.push({
            hostname,
            answer: () => resolve([address]),
            fail: () => reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' })),
          }),
        ),
      2,
      2,
    );
    const first = limited('a.test');
    const second = limited('b.test');
    const ended = new AbortController();
    const third = limited('c.test', ended.signal);
    const fourth = limited('d.test');
    await expect(limited('e.test')).rejects.toMatchObject({ code: 'EAI_AGAIN' });
    expect(asked.map((a) => a.hostname)).toEqual(['a.test', 'b.test']);

    ended.abort();
    await expect(third).rejects.toMatchObject({ code: 'EAI_AGAIN' });
    asked[0]?.answer();
    await expect(first).resolves.toEqual([address]);
    await flush();
    expect(asked.map((a) => a.hostname)).toEqual(['a.test', 'b.test', 'd.test']);

    // A failed lookup frees its place as an answered one does.
    asked[1]?.fail();
    await expect(second).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await flush();
    const fifth = limited('f.test');
    expect(asked.map((a) => a.hostname)).toEqual(['a.test', 'b.test', 'd.test', 'f.test']);
    asked[2]?.answer();
    asked[3]?.answer();
    await expect(Promise.all([fourth, fifth])).resolves.toEqual([[address], [address]]);

    const gone = new AbortController();
    gone.abort();
    await expect(limited('g.test', gone.signal)).rejects.toMatchObject({ code: 'EAI_AGAIN' });
    expect(asked).toHaveLength(4);
  });
});
