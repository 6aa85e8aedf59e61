import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { finishSignOut, isLeavingForSignOut, isSigningOut } from '../../../lib/signing-out.ts';
import { getTokens, saveTokens } from '../../../lib/token-store.ts';
import { logout } from './logout.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

let signingOutDuringCall: boolean | null;
let answer: () => Response;

beforeEach(() => {
  signingOutDuringCall = null;
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      signingOutDuringCall = isSigningOut();
      return answer();
    }),
  );
  saveTokens({ access_token: 'access-1', refresh_token: 'refresh-1', token_type: 'Bearer' });
});

afterEach(() => {
  finishSignOut({ leaving: false });
  vi.unstubAllGlobals();
});

describe('logout', () => {
  it("is signing out while the API ends the session, then leaves for the provider's sign-out", async () => {
    answer = () => json(200, { logout_url: 'http://id.example/session/end?client_id=console' });
    await expect(logout({ leaving: true })).resolves.toBe('http://id.example/session/end?client_id=console');
    expect(signingOutDuringCall).toBe(true);
    expect(isLeavingForSignOut()).toBe(true);
    expect(getTokens()).toMatchObject({ accessToken: null, refreshToken: null });
  });

  it('navigates by itself again when the provider has no sign-out page, or the API did not answer', async () => {
    answer = () => json(200, { logout_url: null });
    await logout({ leaving: true });
    expect(isSigningOut()).toBe(false);
    answer = () => json(503, { status: 503 });
    await logout({ leaving: true });
    expect(signingOutDuringCall).toBe(true);
    expect(isSigningOut()).toBe(false);
    expect(getTokens().refreshToken).toBeNull();
  });

  it('never leaves for an address that is not a web page', async () => {
    answer = () => json(200, { logout_url: 'javascript:alert(1)' });
    await logout({ leaving: true });
    expect(isLeavingForSignOut()).toBe(false);
  });

  it('does not leave when the caller stays (signing in again)', async () => {
    answer = () => json(200, { logout_url: 'http://id.example/session/end' });
    await logout();
    expect(isSigningOut()).toBe(false);
  });
});
