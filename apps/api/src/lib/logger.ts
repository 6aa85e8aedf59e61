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

export function createLogger(
  options: { level: string; pretty?: boolean },
  destination?: pino.DestinationStream,
): Logger {
  const settings: pino.LoggerOptions = {
    level: options.level,
    redact: { paths: redactPaths, censor: '[Redacted]' },
    ...(options.pretty && !destination
      ? { transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } } }
      : {}),
  };
  return destination ? pino(settings, destination) : pino(settings);
}
