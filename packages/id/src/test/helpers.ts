import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DatabaseHandle, migrateDatabase, openDatabase, SecretBox } from '@cp/db';
import { type AccountCenter, createAccountCenter } from '../account-center.ts';
import type { FailureStore } from '../http/rate-limit.ts';

/** Databases the suites run against: PGlite always, PostgreSQL too when TEST_DATABASE_URL is set. */
export const databaseKinds: Array<'pglite' | 'postgresql'> = process.env.TEST_DATABASE_URL
  ? ['pglite', 'postgresql']
  : ['pglite'];

export interface TestDatabase {
  handle: DatabaseHandle;
  drop(): Promise<void>;
}

export async function openTestDatabase(kind: 'pglite' | 'postgresql'): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const handle = await openDatabase({});
    await migrateDatabase(handle);
    return { handle, drop: () => handle.close() };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `id_test_${randomBytes(6).toString('hex')}`;
  // The server-level connection comes from @cp/db too (no direct pg dependency here).
  const admin = await openDatabase({ databaseUrl: serverUrl, poolMax: 1 });
  await admin.executor.executeSql(`CREATE DATABASE ${name}`);
  await admin.close();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), poolMax: 5 });
  await migrateDatabase(handle);
  return {
    handle,
    async drop() {
      await handle.close();
      const cleanup = await openDatabase({ databaseUrl: serverUrl, poolMax: 1 });
      await cleanup.executor.executeSql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.close();
    },
  };
}

export const RP = {
  clientId: 'console',
  clientSecret: 'console-secret-for-tests',
  redirectUri: 'http://console.test/oauth/socious',
  postLogoutRedirectUri: 'http://console.test/intro',
  origin: 'http://console.test',
};

export interface Running {
  baseUrl: string;
  center: AccountCenter;
  logs: string[];
  stop(): Promise<void>;
}

/** Starts an account center on a free port (port 0) of 127.0.0.1, issuer = that address. */
export async function startAccountCenter(
  handle: DatabaseHandle,
  options: {
    backchannelLogoutUri?: string;
    sendMail?: (mail: { to: string; subject: string; text: string; html: string }) => Promise<void>;
    failureStore?: FailureStore;
  } = {},
): Promise<Running> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const logs: string[] = [];
  const log = (obj: object | string, msg?: string) => logs.push(JSON.stringify({ obj, msg }));
  const center = await createAccountCenter({
    db: handle.db,
    secretBox: new SecretBox(randomBytes(32)),
    issuer: baseUrl,
    clients: [
      {
        client_id: RP.clientId,
        client_secret: RP.clientSecret,
        redirect_uris: [RP.redirectUri],
        post_logout_redirect_uris: [RP.postLogoutRedirectUri],
        ...(options.backchannelLogoutUri ? { backchannel_logout_uri: options.backchannelLogoutUri } : {}),
      },
    ],
    allowedReturnOrigins: [RP.origin],
    logger: { info: log, warn: log, error: log },
    ...(options.sendMail ? { sendMail: options.sendMail } : {}),
    ...(options.failureStore ? { failureStore: options.failureStore } : {}),
  });
  server.on('request', center.handler);
  return {
    baseUrl,
    center,
    logs,
    async stop() {
      await center.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** A tiny browser: a cookie jar (by name, path ignored) and manual redirects. */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  #store(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((a) => {
        const [key = '', val = ''] = a.trim().split('=');
        return (
          (key.toLowerCase() === 'max-age' && Number(val) <= 0) ||
          (key.toLowerCase() === 'expires' && new Date(val).getTime() < Date.now())
        );
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** One request, no redirect following. */
  async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    const target = new URL(url, this.baseUrl);
    const headers: Record<string, string> = { ...init.headers };
    if (target.origin === new URL(this.baseUrl).origin && this.cookies.size) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(target, {
      method: init.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
    });
    if (target.origin === new URL(this.baseUrl).origin) this.#store(response);
    return response;
  }

  /**
   * Follows redirects on the account center; stops (without requesting it) at the first URL outside
   * it and answers that URL, or answers the final page.
   */
  async navigate(
    url: string,
    init: { form?: Record<string, string> } = {},
  ): Promise<{ url: string; status: number; html: string; external?: string }> {
    let response = await this.request(url, init);
    let current = new URL(url, this.baseUrl).href;
    for (let hops = 0; hops < 20 && response.status >= 300 && response.status < 400; hops++) {
      const location = new URL(response.headers.get('location') ?? '', current);
      if (location.origin !== new URL(this.baseUrl).origin) {
        return { url: current, status: response.status, html: '', external: location.href };
      }
      current = location.href;
      response = await this.request(current);
    }
    return { url: current, status: response.status, html: await response.text() };
  }
}

export function decodeEntities(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, '`')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The form with the given id: its action and its hidden fields (the CSRF token). */
export function readForm(html: string, id: string): { action: string; csrf: string } {
  const form = new RegExp(`<form[^>]*id="${id}"[^>]*>`).exec(html)?.[0];
  if (!form) throw new Error(`form #${id} not found in page:\n${html.slice(0, 2000)}`);
  const action = /action="([^"]*)"/.exec(form)?.[1] ?? '';
  const csrf = /name="csrf" value="([^"]*)"/.exec(html)?.[1] ?? '';
  return { action: decodeEntities(action), csrf: decodeEntities(csrf) };
}

export function inputValue(html: string, name: string): string | undefined {
  const input = new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0];
  const value = input ? /value="([^"]*)"/.exec(input)?.[1] : undefined;
  return value === undefined ? undefined : decodeEntities(value);
}
