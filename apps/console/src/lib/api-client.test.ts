import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, setSessionExpiredHandler } from './api-client.ts';
import { ApiError, withCatalogue } from './api-error.ts';
import { CURRENT_IDENTITY_KEY } from './current-identity.ts';
import { loadingStore } from './loading.ts';
import { beginSignOut, finishSignOut } from './signing-out.ts';
import { clearTokens, getTokens, saveTokens } from './token-store.ts';

type Call = { url: URL; method: string; headers: Headers; body: unknown };

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

let calls: Call[];
let responder: (call: Call) => Response | Promise<Response>;

beforeEach(() => {
  calls = [];
  responder = () => json(200, { ok: true });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const call: Call = {
        url: new URL(input, 'http://localhost'),
        method: init.method ?? 'GET',
        headers: new Headers(init.headers),
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      return responder(call);
    }),
  );
  setSessionExpiredHandler(() => {});
});

afterEach(() => {
  finishSignOut({ leaving: false });
  vi.unstubAllGlobals();
});

const signIn = (access = 'access-1', refresh = 'refresh-1') =>
  saveTokens({ access_token: access, refresh_token: refresh, token_type: 'Bearer' });

describe('api client headers and query', () => {
  it("sends Authorization '{token_type} {access_token}' and the CurrentIdentity header", async () => {
    signIn();
    window.localStorage.setItem(CURRENT_IDENTITY_KEY, 'org-1');
    await api.get('/organizations');
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer access-1');
    expect(calls[0]?.headers.get('CurrentIdentity')).toBe('org-1');
    expect(calls[0]?.url.pathname).toBe('/api/organizations');
  });

  it('sends neither header when signed out and no organization is chosen', async () => {
    await api.get('/config');
    expect(calls[0]?.headers.has('Authorization')).toBe(false);
    expect(calls[0]?.headers.has('CurrentIdentity')).toBe(false);
  });

  it('adds the t timestamp to GET and DELETE only', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(1234567);
    await api.get('/schemas', { query: { page: 1, limit: 10 } });
    await api.delete('/schemas/1');
    await api.post('/schemas', { name: 'x' });
    await api.put('/schemas/1', { name: 'x' });
    expect(calls[0]?.url.searchParams.get('t')).toBe('1234567');
    expect(calls[0]?.url.searchParams.get('page')).toBe('1');
    expect(calls[1]?.url.searchParams.get('t')).toBe('1234567');
    expect(calls[2]?.url.searchParams.has('t')).toBe(false);
    expect(calls[3]?.url.searchParams.has('t')).toBe(false);
  });

  it('sends list filters as filter.{name}', async () => {
    await api.get('/verifications', { filters: { type: 'SINGLE', empty: '' } });
    expect(calls[0]?.url.searchParams.get('filter.type')).toBe('SINGLE');
    expect(calls[0]?.url.searchParams.has('filter.empty')).toBe(false);
  });

  it('drops empty values from JSON bodies', async () => {
    await api.put('/users', { first_name: 'Jane', last_name: '', job_title: null, avatar_url: undefined });
    expect(calls[0]?.body).toEqual({ first_name: 'Jane' });
    expect(calls[0]?.headers.get('Content-Type')).toBe('application/json');
  });

  it('lets a call override CurrentIdentity', async () => {
    window.localStorage.setItem(CURRENT_IDENTITY_KEY, 'org-1');
    await api.put('/organizations/org-2', { name: 'x' }, { identity: 'org-2' });
    expect(calls[0]?.headers.get('CurrentIdentity')).toBe('org-2');
  });

  it("lets a call of the user's own send no CurrentIdentity at all", async () => {
    window.localStorage.setItem(CURRENT_IDENTITY_KEY, 'org-1');
    await api.get('/organizations', { identity: null });
    expect(calls[0]?.headers.has('CurrentIdentity')).toBe(false);
  });

  it('throws an ApiError carrying the problem details, tagged with its catalogue key', async () => {
    responder = () =>
      json(404, { type: 'about:blank', title: 'Not Found', status: 404, code: 'ORGANIZATION_NOT_FOUND' });
    const failure = (await withCatalogue('catalogue.getOrganization', api.get('/organizations/x')).catch(
      (error: unknown) => error,
    )) as ApiError;
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure.status).toBe(404);
    expect(failure.problem?.code).toBe('ORGANIZATION_NOT_FOUND');
    expect(failure.catalogueKey).toBe('catalogue.getOrganization');
  });

  it('turns the loading counter on during a call and back off after it', async () => {
    let during = -1;
    responder = () => {
      during = loadingStore.count();
      return json(204, undefined);
    };
    await api.post('/auth/logout', {});
    expect(during).toBe(1);
    expect(loadingStore.count()).toBe(0);
  });
});

describe('api client session renewal', () => {
  it('refreshes once on a 401 and retries the original request with the new token', async () => {
    signIn('old-access', 'refresh-1');
    responder = (call) => {
      if (call.url.pathname === '/api/auth/refresh') {
        return json(200, {
          access_token: 'new-access',
          refresh_token: 'refresh-2',
          token_type: 'Bearer',
          expires_in: 900,
        });
      }
      return call.headers.get('Authorization') === 'Bearer new-access' ? json(200, { results: [] }) : json(401, {});
    };
    const answer = await api.get('/organizations');
    expect(answer).toEqual({ results: [] });
    expect(calls.map((c) => c.url.pathname)).toEqual(['/api/organizations', '/api/auth/refresh', '/api/organizations']);
    expect(calls[1]?.body).toEqual({ refresh_token: 'refresh-1' });
    expect(getTokens()).toMatchObject({ accessToken: 'new-access', refreshToken: 'refresh-2' });
  });

  it('shares one refresh between concurrent 401s', async () => {
    signIn('old-access', 'refresh-1');
    responder = async (call) => {
      if (call.url.pathname === '/api/auth/refresh') {
        await new Promise((resolve) => setTimeout(resolve, 10));
        return json(200, {
          access_token: 'new-access',
          refresh_token: 'refresh-2',
          token_type: 'Bearer',
          expires_in: 900,
        });
      }
      return call.headers.get('Authorization') === 'Bearer new-access' ? json(200, {}) : json(401, {});
    };
    await Promise.all([api.get('/users'), api.get('/organizations'), api.get('/config')]);
    expect(calls.filter((c) => c.url.pathname === '/api/auth/refresh')).toHaveLength(1);
    expect(calls).toHaveLength(7);
  });

  it('clears tokens and identity and ends the session when the refresh fails', async () => {
    signIn();
    window.localStorage.setItem(CURRENT_IDENTITY_KEY, 'org-1');
    const expired = vi.fn();
    setSessionExpiredHandler(expired);
    responder = () => json(401, { type: 'about:blank', title: 'Unauthorized', status: 401, code: 'AUTH_REQUIRED' });
    await expect(api.get('/organizations')).rejects.toMatchObject({ status: 401 });
    expect(calls.map((c) => c.url.pathname)).toEqual(['/api/organizations', '/api/auth/refresh']);
    expect(getTokens()).toMatchObject({ accessToken: null, refreshToken: null });
    expect(window.localStorage.getItem(CURRENT_IDENTITY_KEY)).toBeNull();
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('neither renews nor ends the session on a 401 met while this tab signs out (the sign-out navigates)', async () => {
    signIn();
    window.localStorage.setItem(CURRENT_IDENTITY_KEY, 'org-1');
    const expired = vi.fn();
    setSessionExpiredHandler(expired);
    beginSignOut();
    responder = () => json(401, {});
    await expect(api.get('/organizations')).rejects.toMatchObject({ status: 401 });
    expect(calls.map((c) => c.url.pathname)).toEqual(['/api/organizations']);
    expect(expired).not.toHaveBeenCalled();
  });

  it('does not keep a renewal answered after the tab signed out', async () => {
    signIn();
    let answerRefresh: (response: Response) => void = () => {};
    responder = (call) =>
      call.url.pathname === '/api/auth/refresh'
        ? new Promise<Response>((resolve) => {
            answerRefresh = resolve;
          })
        : json(401, {});
    const request = api.get('/users');
    await vi.waitFor(() => expect(calls.map((c) => c.url.pathname)).toContain('/api/auth/refresh'));
    // A sign-out clears the session while the renewal is on its way.
    clearTokens();
    answerRefresh(json(200, { access_token: 'late-access', refresh_token: 'late-refresh', token_type: 'Bearer' }));
    await expect(request).rejects.toMatchObject({ status: 401 });
    expect(getTokens()).toMatchObject({ accessToken: null, refreshToken: null });
  });

  it('does not try to refresh without a refresh token', async () => {
    const expired = vi.fn();
    setSessionExpiredHandler(expired);
    responder = () => json(401, {});
    await expect(api.get('/users')).rejects.toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('does not refresh on a 401 from an auth call', async () => {
    signIn();
    responder = () => json(401, {});
    await expect(api.post('/auth/session', { code: 'x', session: 'y' })).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(1);
    expect(getTokens().refreshToken).toBe('refresh-1');
  });
});
