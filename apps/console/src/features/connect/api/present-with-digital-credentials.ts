import type { IndividualStatus } from '@cp/contracts';

/**
 * OpenID4VP 1.0 over the W3C Digital Credentials API (Appendix A), from the holder page: the API gives the
 * `openid4vp-v1-signed` request for this page's origin, the browser asks a wallet on this device
 * (`navigator.credentials.get`), and the page forwards the wallet's answer to the API, which checks it like
 * any other. These two calls are the verifier's protocol endpoints (/oid4vp, OAuth-style errors), not /api.
 */

export const DC_API_PROTOCOL = 'openid4vp-v1-signed';

/** Why presenting through the browser did not finish: the holder closed it, the browser failed, or the API refused. */
export type DigitalCredentialsFailure = 'CANCELLED' | 'BROWSER_ERROR' | 'REFUSED';

export class DigitalCredentialsError extends Error {
  constructor(
    readonly reason: DigitalCredentialsFailure,
    message: string,
  ) {
    super(message);
    this.name = 'DigitalCredentialsError';
  }
}

interface DigitalCredentialStatic {
  userAgentAllowsProtocol?: (protocol: string) => boolean;
}

/**
 * Whether this browser can ask a wallet through the Digital Credentials API with the signed OpenID4VP
 * protocol: `DigitalCredential` exists (Chromium 141+, Safari 26; secure contexts only) and, where the
 * browser can say, allows `openid4vp-v1-signed`.
 */
export function isDigitalCredentialsAvailable(): boolean {
  const DigitalCredential = (globalThis as { DigitalCredential?: DigitalCredentialStatic }).DigitalCredential;
  if (typeof DigitalCredential === 'undefined' || DigitalCredential === null) return false;
  if (typeof navigator === 'undefined' || !('credentials' in navigator)) return false;
  if (typeof navigator.credentials?.get !== 'function') return false;
  if (typeof DigitalCredential.userAgentAllowsProtocol === 'function') {
    try {
      return DigitalCredential.userAgentAllowsProtocol(DC_API_PROTOCOL);
    } catch {
      return false;
    }
  }
  return true;
}

const attemptPath = (kind: 'requests' | 'responses', id: string) => `/oid4vp/dc-api/${kind}/${encodeURIComponent(id)}`;

async function readJson(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text().catch(() => '');
  try {
    const body = text ? (JSON.parse(text) as unknown) : {};
    return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** GET /oid4vp/dc-api/requests/{attemptId}?origin: the `{protocol, data}` to hand to the browser. */
async function getDcApiRequest(id: string): Promise<{ protocol: string; data: Record<string, unknown> }> {
  const origin = encodeURIComponent(window.location.origin);
  const response = await fetch(`${attemptPath('requests', id)}?origin=${origin}`, {
    headers: { accept: 'application/json' },
  });
  const body = await readJson(response);
  if (!response.ok || typeof body.data !== 'object' || body.data === null) {
    throw new DigitalCredentialsError(
      'REFUSED',
      String(body.error_description ?? `The request answered ${response.status}`),
    );
  }
  return { protocol: String(body.protocol), data: body.data as Record<string, unknown> };
}

/** POST /oid4vp/dc-api/responses/{attemptId}: the wallet's answer as the browser gave it; the outcome. */
async function postDcApiResponse(id: string, data: unknown): Promise<IndividualStatus> {
  const response = await fetch(attemptPath('responses', id), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(data),
  });
  const body = await readJson(response);
  if (!response.ok) {
    throw new DigitalCredentialsError(
      'REFUSED',
      String(body.error_description ?? `The answer was refused (${response.status})`),
    );
  }
  return body.status as IndividualStatus;
}

/** The DigitalCredential's `data`: an object (current browsers), or a JSON text (early implementations). */
function credentialData(credential: unknown): unknown {
  const data = (credential as { data?: unknown } | null)?.data;
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}

/**
 * Asks a wallet on this device through the browser and hands its answer to the verifier: VERIFIED or FAILED.
 * The holder closing the browser's sheet (AbortError, NotAllowedError) is CANCELLED, not a failure.
 */
export async function presentWithDigitalCredentials(id: string): Promise<IndividualStatus> {
  const request = await getDcApiRequest(id);
  let credential: unknown;
  try {
    credential = await navigator.credentials.get({
      // The Digital Credentials API's member (W3C Digital Credentials; not yet in TypeScript's DOM types).
      digital: { requests: [{ protocol: request.protocol, data: request.data }] },
      mediation: 'required',
    } as CredentialRequestOptions);
  } catch (err) {
    const name = err instanceof Error || err instanceof DOMException ? err.name : '';
    const cancelled = name === 'AbortError' || name === 'NotAllowedError';
    throw new DigitalCredentialsError(
      cancelled ? 'CANCELLED' : 'BROWSER_ERROR',
      String((err as Error)?.message ?? err),
    );
  }
  if (!credential || (credential as { protocol?: unknown }).protocol !== DC_API_PROTOCOL) {
    throw new DigitalCredentialsError('BROWSER_ERROR', 'The browser gave no answer for this protocol');
  }
  return postDcApiResponse(id, credentialData(credential));
}
