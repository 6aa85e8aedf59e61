/**
 * Drives the account center's HTML like a browser: one cookie jar, manual redirects. `follow` answers the
 * page, or the first address outside the account center (e.g. the console's callback) as `external`.
 */
export function providerBrowser(origin: string) {
  const cookies = new Map<string, string>();
  const request = async (url: string, form?: Record<string, string>) => {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const index = pair.indexOf('=');
      cookies.set(pair.slice(0, index).trim(), pair.slice(index + 1).trim());
    }
    return response;
  };
  /** Follows redirects inside the account center; answers the page, or the first address outside it. */
  const follow = async (url: string, form?: Record<string, string>) => {
    let current = new URL(url, origin).href;
    let response = await request(current, form);
    while (response.status >= 300 && response.status < 400) {
      const next = new URL(response.headers.get('location') ?? '', current);
      if (next.origin !== origin) return { url: current, html: '', external: next };
      current = next.href;
      response = await request(current);
    }
    return { url: current, html: await response.text(), external: undefined };
  };
  const formOf = (html: string, id: string) => {
    const tag = new RegExp(`<form[^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? '';
    const action = (/action="([^"]*)"/.exec(tag)?.[1] ?? '').replaceAll('&amp;', '&');
    const csrf = /name="csrf" value="([^"]*)"/.exec(html)?.[1] ?? '';
    if (!action) throw new Error(`form #${id} not found:\n${html.slice(0, 500)}`);
    return { action, csrf };
  };
  return { follow, formOf };
}

export type ProviderBrowser = ReturnType<typeof providerBrowser>;
