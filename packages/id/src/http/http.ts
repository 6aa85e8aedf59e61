import type { IncomingMessage, ServerResponse } from 'node:http';

export const MAX_FORM_BYTES = 16 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index <= 0) continue;
    const name = part.slice(0, index).trim();
    if (cookies.has(name)) continue;
    try {
      cookies.set(name, decodeURIComponent(part.slice(index + 1).trim()));
    } catch {
      // A malformed cookie is ignored rather than failing the request.
    }
  }
  return cookies;
}

export function serializeCookie(
  name: string,
  value: string,
  options: { maxAge?: number; secure: boolean; httpOnly?: boolean },
): string {
  return [
    `${name}=${encodeURIComponent(value)}`,
    'Path=/',
    options.maxAge === undefined ? '' : `Max-Age=${options.maxAge}`,
    options.httpOnly === false ? '' : 'HttpOnly',
    'SameSite=Lax',
    options.secure ? 'Secure' : '',
  ]
    .filter(Boolean)
    .join('; ');
}

export function appendSetCookie(res: ServerResponse, cookie: string): void {
  const existing = res.getHeader('Set-Cookie');
  const list = Array.isArray(existing) ? existing : existing === undefined ? [] : [String(existing)];
  res.setHeader('Set-Cookie', [...list, cookie]);
}

/** Reads an application/x-www-form-urlencoded body, refusing anything larger than MAX_FORM_BYTES. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new HttpError(415, 'Unsupported media type');
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_FORM_BYTES) throw new HttpError(413, 'Request body too large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) throw new HttpError(413, 'Request body too large');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** A form value as a string (first occurrence), capped so a huge field never reaches the services. */
export function formValue(form: URLSearchParams, name: string, max = 1024): string {
  return (form.get(name) ?? '').slice(0, max);
}

export function contentSecurityPolicy(formTargets: string[]): string {
  // Form submissions may redirect to the relying parties (browsers check form-action along redirects).
  const formAction = ["'self'", ...formTargets].join(' ');
  return [
    "default-src 'none'",
    "style-src 'self'",
    "font-src 'self'",
    "img-src 'self' data:",
    `form-action ${formAction}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
}

export function sendHtml(res: ServerResponse, status: number, body: string, csp: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

export function redirect(res: ServerResponse, location: string, status = 303): void {
  res.statusCode = status;
  res.setHeader('Location', location);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', '0');
  res.end();
}

export function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? 'unknown';
}
