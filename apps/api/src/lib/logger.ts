import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Keys whose values are credentials: wherever one appears in a log line, at any depth, its value is replaced
 * with `[Redacted]`. Header names too (Node gives them in lower case; matched in any case).
 */
export const SECRET_KEYS = [
  'authorization',
  'cookie',
  'set-cookie',
  'x-admin-token',
  'password',
  'secret',
  'client_secret',
  'refresh_token',
  'access_token',
  'code',
  'token',
] as const;

const SECRET_KEY_SET = new Set<string>(SECRET_KEYS);
/** One of SECRET_KEYS as a JSON key (a quote, the name, a quote, a colon) anywhere in a serialized line. */
const SECRET_KEY_IN_JSON = new RegExp(`"(?:${SECRET_KEYS.join('|')})"\\s*:`, 'i');
const CENSOR = '[Redacted]';

function redactDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = SECRET_KEY_SET.has(key.toLowerCase()) ? CENSOR : redactDeep(inner);
  }
  return out;
}

/**
 * The redaction of every log line, on the line pino has serialized (its `streamWrite` hook): a line in which
 * no secret key appears (nearly all: a request's own two lines) is written as it is, after one scan of its
 * text; one in which a key appears is parsed, its secrets replaced at every depth, and serialized again.
 * pino's own `redact` (path patterns such as `*.password`) cloned every top-level value of every line to look:
 * 14-17 µs per line where this takes 4-5 (bench/RESULTS.md), and it looked one level deep only.
 */
export function redactLine(line: string): string {
  if (!SECRET_KEY_IN_JSON.test(line)) return line;
  try {
    return `${JSON.stringify(redactDeep(JSON.parse(line)))}\n`;
  } catch {
    // Not JSON (pino writes nothing else): withheld rather than written unredacted.
    return `${JSON.stringify({ level: 50, time: Date.now(), msg: 'A log line was withheld: it could not be redacted.' })}\n`;
  }
}

/** An invitation link's token (`/invitations/<43 base64url characters>`) is the secret itself: never logged. */
export const redactUrl = (url: string) => url.replace(/(\/invitations\/)[A-Za-z0-9_-]{43}(?=$|[/?#])/g, '$1[Redacted]');

interface LoggedRequest {
  method?: string;
  url?: string;
  headers?: Record<string, unknown>;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's own request fields (fastify/lib/logger-pino.js), with the secrets of the path redacted. */
function serializeRequest(req: LoggedRequest) {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

export function createLogger(
  options: { level: string; pretty?: boolean },
  destination?: pino.DestinationStream,
): Logger {
  const settings: pino.LoggerOptions = {
    level: options.level,
    hooks: { streamWrite: redactLine },
    serializers: { req: serializeRequest },
    ...(options.pretty && !destination
      ? { transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } } }
      : {}),
  };
  return destination ? pino(settings, destination) : pino(settings);
}
