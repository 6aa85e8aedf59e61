/** Test helpers (imported by *.test.ts only): a fetch that answers from routes, recording each call. */

export type Route = (request: {
  method: string;
  url: URL;
  body: string;
  headers: Headers;
}) => Response | Promise<Response>;

export interface RecordedCall {
  method: string;
  url: string;
  body: string;
  headers: Headers;
}

/** A fetch over absolute URLs (`METHOD url` or `url` for any method); unknown → 404. */
export function routerFetch(routes: Record<string, Route>) {
  const calls: RecordedCall[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? init.body : init.body instanceof URLSearchParams ? `${init.body}` : '';
    const headers = new Headers(init.headers);
    calls.push({ method, url: url.href, body, headers });
    const route = routes[`${method} ${url.href}`] ?? routes[url.href];
    if (!route)
      return new Response('{"error":"not_found"}', { status: 404, headers: { 'content-type': 'application/json' } });
    return route({ method, url, body, headers });
  };
  return { calls, fetch: fetchImpl as typeof fetch };
}

export const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
export const text = (value: string, contentType: string, status = 200) =>
  new Response(value, { status, headers: { 'content-type': contentType } });
