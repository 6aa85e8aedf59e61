import pino, { type Logger } from 'pino';

export type { Logger };

/** Paths pino replaces with [Redacted]: credentials must never reach the logs. */
export const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-admin-token"]',
  'res.headers["set-cookie"]',
  // Plugins log request headers under their own keys too (e.g. @fastify/multipart's busboyOptions at trace).
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["x-admin-token"]',
  '*.password',
  '*.secret',
  '*.client_secret',
  '*.refresh_token',
  '*.access_token',
  '*.code',
  '*.token',
];

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
    redact: { paths: redactPaths, censor: '[Redacted]' },
    serializers: { req: serializeRequest },
    ...(options.pretty && !destination
      ? { transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } } }
      : {}),
  };
  return destination ? pino(settings, destination) : pino(settings);
}
