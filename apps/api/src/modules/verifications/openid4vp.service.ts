import { randomUUID } from 'node:crypto';
import type { IndividualStatus, VerificationCheck, VerificationCheckCode } from '@cp/contracts';
import {
  buildDcqlQuery,
  type DcqlQuery,
  type PresentationCheck,
  type PresentationRule,
  type PresentationVerifierDeps,
  signJwt,
  verifySdJwtPresentation,
  x509Hash,
} from '@cp/credentials';
import type { Database, SecretBox } from '@cp/db';
import { compactDecrypt, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { AppError } from '../../errors/app-error.ts';
import { randomToken } from '../../lib/crypto.ts';
import * as credentialSchemasService from '../credential-schemas/credential-schemas.service.ts';
import { credentialVct } from '../organization-keys/identifiers.ts';
import type { KeyDeps } from '../organization-keys/organization-keys.service.ts';
import * as keysService from '../organization-keys/organization-keys.service.ts';
import * as organizationsService from '../organizations/organizations.service.ts';
import {
  dispatchWebhookDeliveries,
  hasWebhookSubscribers,
  recordWebhookEvents,
  type WebhookDeps,
} from '../webhooks/webhooks.service.ts';
import * as repository from './verifications.repository.ts';
import { generateCustomerId } from './verifications.service.ts';

/** How long a wallet has between fetching the request and answering it. */
const REQUEST_TTL_SECONDS = 600;
const RESPONSE_MAX_CHARS = 200_000;
const QUERY_ID = 'credential';

export interface VerifierDeps {
  db: Database;
  keys: KeyDeps;
  secretBox: SecretBox;
  publicUrl: string;
  resolvers: PresentationVerifierDeps;
  /** `verification.completed` events, recorded with the outcome and sent after it commits. */
  webhooks?: WebhookDeps;
}

/** An OpenID4VP error for the wallet: `{error, error_description}` (RFC 6749 style). */
export class VerifierError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_request_uri' | 'invalid_response',
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
    this.name = 'VerifierError';
  }
}

/** What an attempt asked for, frozen when it began. */
export interface FrozenRequest {
  clientId: string;
  vctValues: string[];
  requestedClaims: string[];
  trustedIssuers: string[];
  rules: PresentationRule[];
  dcql: DcqlQuery;
}

export const requestUri = (publicUrl: string, individualId: string) => `${publicUrl}/oid4vp/requests/${individualId}`;
export const responseUri = (publicUrl: string, individualId: string) => `${publicUrl}/oid4vp/responses/${individualId}`;
export const holderPageUrl = (publicUrl: string, individualId: string) =>
  `${publicUrl}/connect/verification/${individualId}`;

/** The organization's verifier identity: `x509_hash:` of its certificate, and the chain to send. */
async function verifierSigner(deps: VerifierDeps, organizationId: string) {
  const signer = await keysService.getActiveSigner(deps.keys, organizationId);
  const leaf = signer.x5c[0];
  if (!leaf) throw new Error('The organization key has no certificate');
  return { ...signer, clientId: `x509_hash:${await x509Hash(leaf)}` };
}

/**
 * A holder opens a verification link: one attempt with its own nonce, state and response-encryption key.
 * A used single-use link is refused.
 */
export async function createIndividual(deps: VerifierDeps, input: { verification_id: string; customer_id?: string }) {
  const verification = await repository.findPublicVerification(deps.db, input.verification_id);
  if (!verification) throw new AppError('VERIFICATION_NOT_FOUND');
  if (verification.type === 'SINGLE' && verification.completedAt) {
    throw new AppError('VERIFICATION_ALREADY_USED', { detail: 'This single-use verification link has been used.' });
  }
  const schema = await credentialSchemasService.getCredentialSchema(deps.db, {
    organizationId: verification.organizationId,
    id: verification.schemaId,
    includeDeleted: true,
  });
  const owner = schema.schema.organizationId;
  // A platform schema is one shared type; an organization's schema is issued by that organization only.
  const vctValues = [credentialVct(deps.publicUrl, owner ?? verification.organizationId, schema.schema.slug)];
  const { clientId } = await verifierSigner(deps, verification.organizationId);
  const { publicKey, privateKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
  const id = randomUUID();
  const responseKeyPublic = { ...(await exportJWK(publicKey)), kid: randomToken(8), use: 'enc', alg: 'ECDH-ES' };
  const frozen: FrozenRequest = {
    clientId,
    vctValues,
    requestedClaims: verification.requestedClaims,
    trustedIssuers: verification.trustedIssuers,
    rules: verification.rules.map((r) => ({
      attribute: r.name,
      type: r.type as PresentationRule['type'],
      operator: r.operator,
      value: r.value,
    })),
    dcql: buildDcqlQuery({ id: QUERY_ID, vctValues, claims: verification.requestedClaims }),
  };
  return repository.insertIndividual(deps.db, {
    id,
    verificationId: verification.id,
    organizationId: verification.organizationId,
    customerId: input.customer_id ?? generateCustomerId(),
    nonce: randomToken(24),
    state: randomToken(16),
    responseKeyPublic: responseKeyPublic as never,
    responseKeyCiphertext: deps.secretBox.seal(JSON.stringify(await exportJWK(privateKey)), `oid4vp-response:${id}`),
    request: frozen as unknown as Record<string, unknown>,
  });
}

const isOpen = (status: string) => status === 'CREATED' || status === 'REQUESTED';

async function loadIndividual(deps: VerifierDeps, id: string) {
  const row = await repository.findIndividual(deps.db, id);
  if (!row) throw new AppError('VERIFICATION_INDIVIDUAL_NOT_FOUND');
  return row;
}

/** The holder page's data: who asks, for what, and the `openid4vp://` link while the attempt is open. */
export async function connectData(deps: VerifierDeps, individualId: string) {
  const { individual, verification } = await loadIndividual(deps, individualId);
  const organization = await organizationsService.getPublicOrganization(deps.db, verification.organizationId);
  const frozen = individual.request as unknown as FrozenRequest;
  const link = `openid4vp://?client_id=${encodeURIComponent(frozen.clientId)}&request_uri=${encodeURIComponent(
    requestUri(deps.publicUrl, individual.id),
  )}`;
  return {
    id: individual.id,
    status: individual.status as IndividualStatus,
    verification: { name: verification.name, description: verification.description },
    verifier: {
      name: organization.name,
      logo_url: organization.logoMediaId ? `${deps.publicUrl}/api/media/${organization.logoMediaId}` : null,
      verified: organization.verifiedAt !== null,
    },
    requested_claims: frozen.requestedClaims,
    connection_url: isOpen(individual.status) ? link : null,
  };
}

export async function outcome(deps: VerifierDeps, individualId: string) {
  const { individual } = await loadIndividual(deps, individualId);
  const checks = individual.checks as unknown as VerificationCheck[];
  return {
    id: individual.id,
    status: individual.status as IndividualStatus,
    verified_at: individual.verifiedAt?.toISOString() ?? null,
    failed_checks: checks.filter((c) => !c.passed).map((c) => c.code as VerificationCheckCode),
  };
}

/**
 * The signed request object (JAR, RFC 9101) at the `request_uri`: `x509_hash:` client id with the `x5c`
 * chain, a DCQL query, this attempt's nonce and state, and `direct_post.jwt` to an encryption key made
 * for this attempt alone.
 */
export async function requestObject(deps: VerifierDeps, individualId: string) {
  const row = await repository.findIndividual(deps.db, individualId);
  if (!row) throw new VerifierError('invalid_request_uri', 'No such verification request.', 404);
  const { individual, verification } = row;
  if (!isOpen(individual.status)) {
    throw new VerifierError('invalid_request_uri', 'This verification request has already been answered.', 410);
  }
  if (verification.type === 'SINGLE' && verification.completedAt) {
    throw new VerifierError('invalid_request_uri', 'This single-use verification link has been used.', 410);
  }
  const frozen = individual.request as unknown as FrozenRequest;
  const signer = await verifierSigner(deps, verification.organizationId);
  const organization = await organizationsService.getPublicOrganization(deps.db, verification.organizationId);
  const now = Math.floor(Date.now() / 1000);
  const jwt = await signJwt(
    signer.signer,
    { typ: 'oauth-authz-req+jwt', x5c: signer.x5c },
    {
      iss: signer.clientId,
      aud: 'https://self-issued.me/v2',
      client_id: signer.clientId,
      response_type: 'vp_token',
      response_mode: 'direct_post.jwt',
      response_uri: responseUri(deps.publicUrl, individual.id),
      nonce: individual.nonce,
      state: individual.state,
      dcql_query: frozen.dcql,
      client_metadata: {
        client_name: organization.name,
        ...(organization.logoMediaId ? { logo_uri: `${deps.publicUrl}/api/media/${organization.logoMediaId}` } : {}),
        jwks: { keys: [individual.responseKeyPublic] },
        encrypted_response_enc_values_supported: ['A128GCM', 'A256GCM'],
        vp_formats_supported: {
          'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
        },
      },
      iat: now,
      exp: now + REQUEST_TTL_SECONDS,
      jti: randomToken(12),
    },
  );
  await repository.markRequested(deps.db, individual.id);
  return jwt;
}

type Body = Record<string, unknown>;

/** The wallet's answer: plain `vp_token` + `state` (direct_post) or an encrypted `response` (direct_post.jwt). */
async function readResponse(
  deps: VerifierDeps,
  individual: repository.VerificationIndividualRow,
  body: Body,
): Promise<{ payload: Body } | { error: string }> {
  if (typeof body.response === 'string') {
    if (body.response.length > RESPONSE_MAX_CHARS) return { error: 'The encrypted response is too large' };
    try {
      const privateJwk = JSON.parse(
        deps.secretBox.open(individual.responseKeyCiphertext, `oid4vp-response:${individual.id}`),
      ) as JWK;
      const key = await importJWK(privateJwk, 'ECDH-ES');
      const { plaintext } = await compactDecrypt(body.response, key, {
        keyManagementAlgorithms: ['ECDH-ES'],
        contentEncryptionAlgorithms: ['A128GCM', 'A256GCM'],
      });
      const payload = JSON.parse(new TextDecoder().decode(plaintext)) as unknown;
      if (!payload || typeof payload !== 'object') return { error: 'The decrypted response is not a JSON object' };
      return { payload: payload as Body };
    } catch {
      return { error: 'The encrypted response cannot be decrypted with this request’s key' };
    }
  }
  return { payload: body };
}

function presentationOf(vpToken: unknown): string | undefined {
  let token = vpToken;
  if (typeof token === 'string' && token.trim().startsWith('{')) {
    try {
      token = JSON.parse(token);
    } catch {
      return undefined;
    }
  }
  if (typeof token === 'string') return token;
  if (token && typeof token === 'object' && !Array.isArray(token)) {
    const value = (token as Body)[QUERY_ID];
    if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'string') return value[0];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/**
 * The response endpoint: decrypts or reads the answer, verifies the presentation, records every check
 * and the outcome, once. A single-use link completes with its first finished attempt.
 */
export async function handleResponse(deps: VerifierDeps, individualId: string, rawBody: unknown) {
  const row = await repository.findIndividual(deps.db, individualId);
  if (!row) throw new VerifierError('invalid_request', 'No such verification request.', 404);
  const { individual, verification } = row;
  if (!isOpen(individual.status)) {
    throw new VerifierError('invalid_request', 'This verification request has already been answered.');
  }
  const body = (rawBody && typeof rawBody === 'object' ? rawBody : {}) as Body;
  if (typeof body.response !== 'string' && body.vp_token === undefined && typeof body.error !== 'string') {
    throw new VerifierError('invalid_request', 'Send vp_token and state, response (direct_post.jwt) or error.');
  }
  const frozen = individual.request as unknown as FrozenRequest;
  let checks: PresentationCheck[] | VerificationCheck[];
  let claims: Record<string, unknown> = {};
  let issuer: string | null = null;
  let consumesLink = true;

  const read = await readResponse(deps, individual, body);
  if ('error' in read) {
    checks = [{ code: 'RESPONSE_FORMAT', passed: false, detail: read.error }];
  } else if (typeof read.payload.error === 'string') {
    // The holder declined or the wallet could not answer: the attempt ends, the link stays usable.
    consumesLink = false;
    const description = typeof read.payload.error_description === 'string' ? `: ${read.payload.error_description}` : '';
    checks = [{ code: 'WALLET_ERROR', passed: false, detail: `${read.payload.error}${description}`.slice(0, 300) }];
  } else if (read.payload.state !== individual.state) {
    checks = [{ code: 'RESPONSE_FORMAT', passed: false, detail: 'The state does not match this request' }];
  } else {
    const presentation = presentationOf(read.payload.vp_token);
    if (!presentation || presentation.length > RESPONSE_MAX_CHARS) {
      checks = [
        { code: 'RESPONSE_FORMAT', passed: false, detail: `vp_token must hold one presentation for "${QUERY_ID}"` },
      ];
    } else {
      const result = await verifySdJwtPresentation(
        presentation,
        {
          nonce: individual.nonce,
          audience: frozen.clientId,
          vctValues: frozen.vctValues,
          requiredClaims: frozen.requestedClaims,
          trustedIssuers: frozen.trustedIssuers,
          rules: frozen.rules,
        },
        deps.resolvers,
      );
      checks = result.checks;
      claims = result.claims;
      issuer = result.issuer;
    }
  }

  let passed = checks.every((c) => c.passed);
  const outcome = () => ({
    status: passed ? ('VERIFIED' as const) : ('FAILED' as const),
    checks: checks as unknown as Record<string, unknown>[],
    // Empty unless the issuer signature verified: only then are the claims the issuer's.
    presentedClaims: claims,
    issuer,
  });
  let deliveryIds: string[] = [];
  const singleUse = verification.type === 'SINGLE' && consumesLink;
  const notify = deps.webhooks
    ? await hasWebhookSubscribers(deps.db, verification.organizationId, 'verification.completed')
    : false;
  const completed =
    !singleUse && !notify
      ? // Nothing to keep atomic with the outcome (no single-use claim, no event): one statement.
        await repository.completeIndividual(deps.db, individual.id, outcome())
      : await deps.db.transaction(async (tx) => {
          if (singleUse && !(await repository.claimSingleUse(tx, verification.id))) {
            checks = [...checks, { code: 'SINGLE_USE', passed: false, detail: 'The single-use link was already used' }];
            passed = false;
          }
          const row = await repository.completeIndividual(tx, individual.id, outcome());
          // The event is stored with the outcome (same transaction): it is sent once the outcome is visible.
          if (row && notify && deps.webhooks) {
            deliveryIds = await recordWebhookEvents(tx, row.organizationId, 'verification.completed', async () => [
              completedEvent(deps, row),
            ]);
          }
          return row;
        });
  if (!completed) throw new VerifierError('invalid_request', 'This verification request has already been answered.');
  if (deps.webhooks) await dispatchWebhookDeliveries(deps.webhooks, deliveryIds);
  return { redirect_uri: holderPageUrl(deps.publicUrl, individual.id), status: completed.status };
}

/** The `verification.completed` event: the outcome without the claims (read them with an API key). */
function completedEvent(deps: VerifierDeps, row: repository.VerificationIndividualRow) {
  const checks = row.checks as unknown as VerificationCheck[];
  return {
    verification_id: row.verificationId,
    individual_id: row.id,
    customer_id: row.customerId,
    status: row.status,
    verified_at: row.verifiedAt?.toISOString() ?? null,
    failed_checks: checks.filter((c) => !c.passed).map((c) => c.code),
    result_url: `${deps.publicUrl}/api/verifications/${row.verificationId}/individuals/${encodeURIComponent(row.customerId)}`,
  };
}
