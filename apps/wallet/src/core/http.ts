import { WalletError, type WalletErrorCode } from './errors.ts';

/** HTTP as the wallet does it: the browser's fetch, every failure turned into a WalletError. */

export interface HttpAnswer {
  status: number;
  ok: boolean;
  contentType: string;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface HttpRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  form?: Record<string, string>;
  json?: unknown;
  /** The code of the WalletError thrown when the server cannot be reached (default NETWORK). */
  unreachable?: WalletErrorCode;
}

export async function http(url: string, request: HttpRequest = {}): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...request.headers };
  let body: string | undefined;
  if (request.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.form).toString();
  } else if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  }
  let response: Response;
  try {
    response = await globalThis.fetch(url, {
      method: request.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      ...(body === undefined ? {} : { body }),
    });
  } catch (err) {
    throw new WalletError(
      request.unreachable ?? 'NETWORK',
      `${url} cannot be reached: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    throw new WalletError(request.unreachable ?? 'NETWORK', `${url} did not answer completely`);
  }
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    ok: response.ok,
    contentType: response.headers.get('content-type') ?? '',
    text,
    json,
  };
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** GETs a JSON object; anything else (status, body) is the given error. */
export async function getJson(
  url: string,
  code: WalletErrorCode = 'ISSUER_UNREACHABLE',
): Promise<Record<string, unknown>> {
  const answer = await http(url, { headers: { accept: 'application/json' }, unreachable: code });
  if (!answer.ok || !isObject(answer.json)) throw new WalletError(code, `${url} answered ${answer.status}`);
  return answer.json;
}

/** Hosts where plain http is accepted for did:web (development). */
export const isLocalHost = (host: string) =>
  /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(host) || host.endsWith('.localhost');

/** A `FetchJson` for @cp/credentials' resolvers. */
export const fetchJson = (url: string): Promise<unknown> => getJson(url, 'ISSUER_UNREACHABLE');

export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
