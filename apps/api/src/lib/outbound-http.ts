import dns, { type LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP, isIPv4, isIPv6, type LookupFunction } from 'node:net';

/**
 * Outbound HTTP to addresses that users influence (webhook endpoints, issuers' DID documents, metadata and
 * status lists): the server must not become a proxy into its own network (SSRF). Unless private networks
 * are allowed, the host is resolved once, every resolved address must be public, and the connection goes
 * to one of exactly those addresses: the check happens inside the socket's own DNS lookup, so the name
 * cannot be re-resolved to another address between the check and the connection (DNS rebinding). TLS
 * still verifies the certificate against the host name (SNI and Host stay the URL's).
 *
 * node:http/https rather than fetch: Node 20's fetch takes a dispatcher only from the `undici` package,
 * which is not a dependency, while `http.request` accepts a `lookup` function as it is.
 */

// ---- address classification --------------------------------------------------------------------

/** Why an address is not public (IANA special-purpose registries, RFC 6890 and successors). */
export type NonPublicRange =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'multicast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved';

type Ipv4Rule = readonly [base: string, prefix: number, range: NonPublicRange];

const IPV4_RULES: readonly Ipv4Rule[] = [
  ['0.0.0.0', 8, 'unspecified'], // "this network"; 0.0.0.0 reaches the local host
  ['10.0.0.0', 8, 'private'], // RFC 1918
  ['100.64.0.0', 10, 'shared'], // RFC 6598 carrier-grade NAT
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'], // RFC 3927, cloud metadata services (169.254.169.254)
  ['172.16.0.0', 12, 'private'], // RFC 1918
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'documentation'], // TEST-NET-1
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast (RFC 7526)
  ['192.168.0.0', 16, 'private'], // RFC 1918
  ['198.18.0.0', 15, 'benchmarking'], // RFC 2544
  ['198.51.100.0', 24, 'documentation'], // TEST-NET-2
  ['203.0.113.0', 24, 'documentation'], // TEST-NET-3
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // future use, and 255.255.255.255 broadcast
];

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

const IPV4_TABLE = IPV4_RULES.map(([base, prefix, range]) => ({
  base: ipv4ToNumber(base),
  size: 2 ** (32 - prefix),
  range,
}));

function classifyIpv4Number(value: number): NonPublicRange | null {
  for (const rule of IPV4_TABLE) {
    if (value >= rule.base && value < rule.base + rule.size) return rule.range;
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part and a zone id are accepted). */
function ipv6Groups(address: string): number[] | null {
  let text = address.split('%')[0] ?? '';
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIPv4(tail)) return null;
    const v4 = ipv4ToNumber(tail);
    text = `${text.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const head = parse(halves[0]);
  const rest = parse(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

const embeddedIpv4 = (high: number, low: number) => high * 65536 + low;

function classifyIpv6(g: number[]): NonPublicRange | null {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const zeroPrefix = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroPrefix && g5 === 0 && g6 === 0 && g7 === 0) return 'unspecified';
  if (zeroPrefix && g5 === 0 && g6 === 0 && g7 === 1) return 'loopback';
  // ::ffff:a.b.c.d (IPv4-mapped): a dual-stack socket connects to the IPv4 address itself.
  if (zeroPrefix && g5 === 0xffff) return classifyIpv4Number(embeddedIpv4(g6, g7));
  // 64:ff9b::/96 (NAT64, RFC 6052): the gateway forwards to the embedded IPv4 address.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return classifyIpv4Number(embeddedIpv4(g6, g7));
  }
  // 2002::/16 (6to4, RFC 3056): the relay forwards to the IPv4 address in bits 16–47.
  if (g0 === 0x2002) return classifyIpv4Number(embeddedIpv4(g1, g2));
  if ((g0 & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return 'private'; // fec0::/10 site-local (deprecated)
  if ((g0 & 0xff00) === 0xff00) return 'multicast'; // ff00::/8
  if (g0 === 0x2001 && g1 === 0x0db8) return 'documentation'; // 2001:db8::/32
  if (g0 === 0x3fff && g1 < 0x1000) return 'documentation'; // 3fff::/20
  // 2001::/23: IETF protocol assignments, Teredo (2001::/32, which tunnels to an obfuscated IPv4) included.
  if (g0 === 0x2001 && g1 < 0x0200) return 'reserved';
  if (g0 === 0x5f00) return 'reserved'; // 5f00::/16 SRv6 SIDs (RFC 9602)
  // Only 2000::/3 is global unicast: ::/96 IPv4-compatible, 100::/64 discard, 64:ff9b:1::/48 and the rest.
  if ((g0 & 0xe000) !== 0x2000) return 'reserved';
  return null;
}

/**
 * The special-purpose range an IP address falls in, or null for a public (globally reachable) one.
 * Anything that is not an IP address counts as reserved, so a caller that forgets to resolve fails closed.
 */
export function nonPublicRange(address: string): NonPublicRange | null {
  const text = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(text)) return classifyIpv4Number(ipv4ToNumber(text));
  const groups = isIPv6(text) ? ipv6Groups(text) : null;
  return groups ? classifyIpv6(groups) : 'reserved';
}

export const isPublicAddress = (address: string) => nonPublicRange(address) === null;

/** Host names that always mean this machine (RFC 6761 §6.3), refused without asking DNS. */
const isLocalhostName = (hostname: string) => /(^|\.)localhost\.?$/i.test(hostname);

/**
 * Whether a URL's host is, on its face, a non-public destination: a literal non-public IP or a localhost
 * name. Other names are only known once resolved: `outboundRequest` checks those at connection time.
 */
export function literalNonPublicHost(url: URL): NonPublicRange | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return nonPublicRange(host);
  return isLocalhostName(host) ? 'loopback' : null;
}

// ---- requests -----------------------------------------------------------------------------------

export type OutboundErrorCode =
  | 'URL_NOT_ALLOWED'
  | 'ADDRESS_NOT_PUBLIC'
  | 'TIMEOUT'
  | 'TOO_LARGE'
  | 'CONNECTION_FAILED';

/** A failed outbound request. The message is short and safe for a delivery log or a check's detail. */
export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

const notPublic = (range: NonPublicRange) =>
  new OutboundError('ADDRESS_NOT_PUBLIC', `Refused: the host's address is not public (${range})`);

export interface OutboundPolicy {
  /** Let requests reach loopback, private and other non-public addresses (development and tests only). */
  allowPrivateNetworks: boolean;
  /** Accept http: as well as https: URLs. */
  allowHttp: boolean;
  /** Name resolution; the system resolver unless a test supplies its own. */
  resolveAll?: ResolveAll;
  /** The system resolver's lookups at once (config `outbound.lookupsAtOnce`; 2 when unset). */
  lookupsAtOnce?: number;
}

export interface OutboundRequestOptions {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** One limit for everything: lookup, connection, request and the response body. */
  timeoutMs: number;
  /** The largest response body read; past it the request fails. 0: the body is discarded unread. */
  maxBytes: number;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Every address of a host name (the system resolver by default: /etc/hosts, then DNS). `signal` aborts when
 * the request that asked has ended (answered, failed or timed out).
 */
export type ResolveAll = (hostname: string, signal?: AbortSignal) => Promise<LookupAddress[]>;

function lookupBusy(): NodeJS.ErrnoException {
  return Object.assign(new Error('Too many host names being resolved'), { code: 'EAI_AGAIN' });
}

/**
 * At most `atOnce` calls of `resolveAll` at a time. Later ones wait their turn in order, at most `queueMax`
 * of them (past that they fail at once with EAI_AGAIN), and one whose signal aborts while it waits leaves the
 * queue without ever being resolved.
 */
export function limitedResolveAll(resolveAll: ResolveAll, atOnce: number, queueMax: number): ResolveAll {
  let running = 0;
  const waiting: Array<() => void> = [];
  const startNext = () => {
    while (running < atOnce && waiting.length > 0) waiting.shift()?.();
  };
  return (hostname, signal) =>
    new Promise<LookupAddress[]>((resolve, reject) => {
      if (signal?.aborted) return reject(lookupBusy());
      const start = () => {
        signal?.removeEventListener('abort', leave);
        running++;
        let lookup: Promise<LookupAddress[]>;
        try {
          lookup = resolveAll(hostname, signal);
        } catch (err) {
          lookup = Promise.reject(err);
        }
        lookup.then(resolve, reject).finally(() => {
          running--;
          startNext();
        });
      };
      const leave = () => {
        const index = waiting.indexOf(start);
        if (index >= 0) waiting.splice(index, 1);
        reject(lookupBusy());
      };
      if (running < atOnce) return start();
      if (waiting.length >= queueMax) return reject(lookupBusy());
      signal?.addEventListener('abort', leave, { once: true });
      waiting.push(start);
    });
}

/**
 * The system resolver (getaddrinfo) runs on libuv's thread pool (UV_THREADPOOL_SIZE threads, 4 by default),
 * the same threads that check the verifier's signatures and agree its response keys (node:crypto with a
 * callback, packages/credentials/src/jws.ts and response-decryption.ts) and read local files. A name whose
 * DNS server never answers holds a thread for the resolver's whole timeout, seconds, and nothing cancels it;
 * such names are an attacker's to choose (the issuer URL in a presentation an organization checks with
 * ANY_ISSUER, a webhook host). So at most half the pool resolves at once: a flood of such names delays other
 * outbound requests (they time out and fail as any unreachable host does), never the verifier's cryptography.
 * One limiter per process (per limit), shared by every request.
 */
const systemResolvers = new Map<number, ResolveAll>();
function systemResolveAll(atOnce: number): ResolveAll {
  let resolver = systemResolvers.get(atOnce);
  if (!resolver) {
    resolver = limitedResolveAll((hostname) => dns.promises.lookup(hostname, { all: true }), atOnce, 256);
    systemResolvers.set(atOnce, resolver);
  }
  return resolver;
}

/**
 * The socket's DNS lookup: resolves the name once, and unless private networks are allowed refuses it
 * when any one address is not public (a name with one private address is not a safe target). The socket
 * connects to exactly the list handed back here: what was checked is what is connected to.
 */
export function pinnedLookup(
  resolveAll: ResolveAll,
  allowPrivateNetworks: boolean,
  signal?: AbortSignal,
): LookupFunction {
  return (hostname, options, callback) => {
    const checked = async () => {
      if (!allowPrivateNetworks && isLocalhostName(hostname)) throw notPublic('loopback');
      const family = options.family === 4 || options.family === 6 ? options.family : undefined;
      const addresses = (await resolveAll(hostname, signal)).filter((a) => !family || a.family === family);
      if (addresses.length === 0) throw Object.assign(new Error('No address'), { code: 'ENOTFOUND' });
      if (!allowPrivateNetworks) {
        for (const { address } of addresses) {
          const range = nonPublicRange(address);
          if (range) throw notPublic(range);
        }
      }
      return addresses;
    };
    checked().then(
      (addresses) => {
        const first = addresses[0] as LookupAddress;
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

/** A short reason without the URL, host or any header. */
function connectionFailure(err: unknown): OutboundError {
  if (err instanceof OutboundError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  return new OutboundError(
    'CONNECTION_FAILED',
    typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? `Connection failed (${code})` : 'Connection failed',
  );
}

/**
 * One HTTP request under the policy: no redirects followed (a 3xx is answered as is), no proxy, a time
 * limit over the whole exchange, a cap on the body read. Rejects with an `OutboundError` only.
 */
export async function outboundRequest(
  url: string | URL,
  policy: OutboundPolicy,
  options: OutboundRequestOptions,
): Promise<OutboundResponse> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new OutboundError('URL_NOT_ALLOWED', 'Not a valid URL');
  }
  if (target.protocol !== 'https:' && !(policy.allowHttp && target.protocol === 'http:')) {
    throw new OutboundError('URL_NOT_ALLOWED', `Refusing to fetch ${target.protocol} URL`);
  }
  // A literal IP never reaches the lookup function (net connects to it directly): check it here.
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!policy.allowPrivateNetworks && isIP(host)) {
    const range = nonPublicRange(host);
    if (range) throw notPublic(range);
  }
  const body = options.body === undefined ? undefined : Buffer.from(options.body, 'utf8');
  const client = target.protocol === 'https:' ? https : http;

  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    // Ended: a lookup of this request still waiting its turn is dropped (limitedResolveAll).
    const ended = new AbortController();
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ended.abort();
      outcome();
    };
    const fail = (err: unknown) => finish(() => reject(connectionFailure(err)));
    let request: http.ClientRequest;
    try {
      request = client.request(
        {
          protocol: target.protocol,
          hostname: host,
          port: target.port || undefined,
          path: `${target.pathname}${target.search}`,
          method: options.method,
          headers: {
            'accept-encoding': 'identity',
            ...options.headers,
            ...(body ? { 'content-length': String(body.length) } : {}),
          },
          // A fresh connection each time: a pooled socket would skip the lookup (and its check).
          agent: false,
          lookup: pinnedLookup(
            policy.resolveAll ?? systemResolveAll(policy.lookupsAtOnce ?? 2),
            policy.allowPrivateNetworks,
            ended.signal,
          ),
        },
        (response) => {
          const status = response.statusCode ?? 0;
          const headers = response.headers;
          if (options.maxBytes === 0) {
            response.destroy();
            finish(() => resolve({ status, headers, body: Buffer.alloc(0) }));
            return;
          }
          const tooLarge = () => {
            response.destroy();
            finish(() => reject(new OutboundError('TOO_LARGE', 'The document is too large')));
          };
          if (Number(headers['content-length'] ?? 0) > options.maxBytes) return tooLarge();
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > options.maxBytes) tooLarge();
            else chunks.push(chunk);
          });
          response.on('end', () => finish(() => resolve({ status, headers, body: Buffer.concat(chunks) })));
          response.on('error', fail);
          // A connection cut mid-body: no 'end' comes (after 'end', `finish` has already run).
          response.on('close', () => fail(new Error('closed')));
        },
      );
    } catch (err) {
      // Header values Node refuses (e.g. control characters) throw synchronously.
      fail(err);
      return;
    }
    timer = setTimeout(() => {
      const seconds = Math.ceil(options.timeoutMs / 1000);
      finish(() => reject(new OutboundError('TIMEOUT', `Timed out after ${seconds} s`)));
      request.destroy();
    }, options.timeoutMs);
    request.on('error', fail);
    request.end(body);
  });
}
