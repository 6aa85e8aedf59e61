import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors/app-error.ts';
import { registerOAuthErrorHandler } from '../../plugins/oauth-errors.ts';
import { publicCors } from '../../plugins/public-cors.ts';
import { findIssuerPolicy } from '../issuer-policy/issuer-policy.service.ts';
import { issuerUrl } from '../organization-keys/identifiers.ts';
import { authorizeCredentialRequest, checkTokenRequestDpop, createDpopNonce, type DpopDeps } from './dpop.ts';
import * as issuerService from './issuer.service.ts';
import {
  ATTESTATION_CHALLENGE_HEADER,
  ATTESTATION_HEADER,
  ATTESTATION_POP_HEADER,
  checkTokenRequestWalletAttestation,
  createAttestationChallenge,
} from './wallet-attestation.ts';

const zOrgParams = z.object({ id: z.uuid() });
const zOfferParams = z.object({ id: z.uuid(), offerId: z.uuid() });
const zVctParams = z.object({ id: z.uuid(), slug: z.string().min(1).max(200) });
const zStatusListParams = z.object({ id: z.uuid(), statusListId: z.uuid() });

/** A header that must name one media type (parameters such as `charset` allowed). */
const zContentType = (type: string, why: string) =>
  z
    .object({
      'content-type': z
        .string({ error: `content-type must be ${type} (${why}).` })
        .refine((value) => value.split(';')[0]?.trim().toLowerCase() === type, `must be ${type} (${why})`),
    })
    // Loose: the other headers (authorization) stay on the request.
    .loose();

/**
 * Token request (RFC 6749 §4.1.3 and §3.2, OpenID4VCI 1.0 §6.1): form-encoded, one value per parameter.
 * @openid4vc/oauth2 reads the grant from it; the bounds here keep oversized values out of the database.
 */
const zTokenRequest = z
  .object({
    grant_type: z.string().min(1).max(200),
    'pre-authorized_code': z.string().min(1).max(200).optional(),
    // Optional for the pre-authorized code grant; when sent with a wallet attestation, its `sub`.
    client_id: z.string().min(1).max(500).optional(),
    tx_code: z.string().min(1).max(100).optional(),
    user_pin: z.string().min(1).max(100).optional(),
  })
  .loose();

/**
 * Credential request (OpenID4VCI 1.0 §8.2): JSON, read in full by @openid4vc/openid4vci. The schema bounds
 * its parts; which proof and which configuration are the issuer's questions (their own error codes).
 */
const zCredentialRequest = z
  .object({
    credential_configuration_id: z.string().min(1).max(200).optional(),
    credential_identifier: z.string().min(1).max(200).optional(),
    format: z.string().min(1).max(100).optional(),
    proof: z
      .object({ proof_type: z.string().min(1).max(50) })
      .loose()
      .optional(),
    // Bounded well above batch_size: more proofs than the issuer announces is the service's invalid_proof.
    proofs: z.record(z.string().min(1).max(50), z.array(z.unknown()).max(100)).optional(),
    // Read by response-encryption.ts: whatever is wrong with it is invalid_encryption_parameters.
    credential_response_encryption: z.unknown().optional(),
  })
  .loose();

/** The HTTP request as @openid4vc reads it (it looks at DPoP and client attestation headers). */
function protocolHttp(request: FastifyRequest) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  return { headers, method: 'POST' as const, url: `${request.protocol}://${request.host}${request.url}` };
}

/**
 * OpenID4VCI 1.0 issuer per organization, at the organization's issuer URL `<PUBLIC_URL>/orgs/<id>`:
 * metadata, the offer by reference, token (pre-authorized code), nonce and credential endpoints, the
 * SD-JWT VC type metadata and the Token Status List.
 */
export function issuerRoutes(ctx: AppContext): FastifyPluginAsync {
  const deps = ctx.deps.issuer;
  const dpopDeps: DpopDeps = { db: deps.db, offerCodeKey: deps.credentials.offerCodeKey };
  const attestationDeps = dpopDeps;
  /** An endpoint's public URL, as the metadata announces it: what DPoP proofs name as `htu` (RFC 9449 §4.3). */
  const endpointUrl = (id: string, endpoint: 'token' | 'credential') => `${issuerUrl(deps.publicUrl, id)}/${endpoint}`;
  // Token, nonce and credential endpoints: a stricter per-address limit (RATE_LIMIT_ISSUER_PER_MINUTE).
  const limited = { config: { rateLimit: { max: ctx.config.rateLimits.issuer, timeWindow: '1 minute' } } };
  return async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    // Wallets may run in a browser on another origin: the issuer endpoints are public and cookie-free.
    publicCors(app, {
      methods: ['GET', 'POST', 'OPTIONS'],
      allowedHeaders: ['authorization', 'content-type', 'dpop', ATTESTATION_HEADER, ATTESTATION_POP_HEADER],
      // A wallet in a browser must read the DPoP nonce and the DPoP challenge (RFC 9449 §8, §7.1), and the
      // attestation challenge that comes with `use_attestation_challenge`.
      exposedHeaders: ['dpop-nonce', 'www-authenticate', ATTESTATION_CHALLENGE_HEADER],
    });
    // Failures of these routes are OAuth errors `{error, error_description}` (RFC 6749 §5.2), not problem+json.
    registerOAuthErrorHandler(app);
    const issuerMetadata = async (id: string, reply: FastifyReply) =>
      reply.header('cache-control', 'public, max-age=60').send(await issuerService.credentialIssuerMetadata(deps, id));
    const asMetadata = async (id: string, reply: FastifyReply) =>
      reply
        .header('cache-control', 'public, max-age=300')
        .send(await issuerService.authorizationServerMetadata(deps, id));

    // OpenID4VCI §12.2.2 inserts the well-known segment before the issuer path; some wallets append it.
    const orgRoute = { schema: { params: zOrgParams } };
    app.get('/.well-known/openid-credential-issuer/orgs/:id', orgRoute, async (request, reply) =>
      issuerMetadata(request.params.id, reply),
    );
    app.get('/orgs/:id/.well-known/openid-credential-issuer', orgRoute, async (request, reply) =>
      issuerMetadata(request.params.id, reply),
    );
    app.get('/.well-known/oauth-authorization-server/orgs/:id', orgRoute, async (request, reply) =>
      asMetadata(request.params.id, reply),
    );
    app.get('/orgs/:id/.well-known/oauth-authorization-server', orgRoute, async (request, reply) =>
      asMetadata(request.params.id, reply),
    );

    app.get('/orgs/:id/credential-offer/:offerId', { schema: { params: zOfferParams } }, async (request, reply) => {
      const { id, offerId } = request.params;
      const offer = await issuerService.credentialOffer(deps, id, offerId);
      reply.header('cache-control', 'no-store');
      if (!offer) return reply.status(404).send({ error: 'invalid_request', error_description: 'No such open offer.' });
      return offer;
    });

    for (const path of ['/orgs/:id/token', '/orgs/:id/nonce', '/orgs/:id/challenge', '/orgs/:id/credential']) {
      app.options(path, async (_request, reply) => reply.status(204).send());
    }

    app.post(
      '/orgs/:id/token',
      {
        ...limited,
        bodyLimit: 16 * 1024,
        schema: {
          params: zOrgParams,
          headers: zContentType('application/x-www-form-urlencoded', 'RFC 6749 §3.2'),
          body: zTokenRequest,
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const http = protocolHttp(request);
        // The organization's issuer policy is read (fresh, any process) only for a request without a proof.
        const dpopJkt = await checkTokenRequestDpop(
          dpopDeps,
          id,
          { url: endpointUrl(id, 'token'), headers: http.headers },
          async () => (await findIssuerPolicy(deps.db, id)).dpopRequired,
        );
        // OAuth 2.0 Attestation-Based Client Authentication: checked whenever sent, required by the policy.
        const walletAttestation = await checkTokenRequestWalletAttestation(
          attestationDeps,
          id,
          { issuer: issuerUrl(deps.publicUrl, id), headers: http.headers, clientId: request.body.client_id },
          async () => (await findIssuerPolicy(deps.db, id)).walletAttestationRequired,
        );
        const answer = await issuerService.exchangePreAuthorizedCode(deps, id, {
          body: request.body,
          http,
          dpopJkt,
          walletAttestation,
        });
        // RFC 9449 §8.2: the nonce for the wallet's next proof (the credential request), saving it a retry.
        if (dpopJkt) reply.header('dpop-nonce', createDpopNonce(dpopDeps, id));
        return reply.header('cache-control', 'no-store').send(answer);
      },
    );

    // OpenID4VCI 1.0 §7.1: a POST without a body; whatever body comes is not read.
    app.post(
      '/orgs/:id/nonce',
      { ...limited, bodyLimit: 4 * 1024, schema: { params: zOrgParams } },
      async (request, reply) =>
        reply.header('cache-control', 'no-store').send(await issuerService.issueNonce(deps, request.params.id)),
    );

    // OAuth 2.0 Attestation-Based Client Authentication §Challenges: a fresh challenge for the attestation PoP.
    app.post(
      '/orgs/:id/challenge',
      { ...limited, bodyLimit: 4 * 1024, schema: { params: zOrgParams } },
      async (request, reply) => {
        await issuerService.authorizationServerMetadata(deps, request.params.id); // 404 for an unknown issuer
        return reply
          .header('cache-control', 'no-store')
          .send({ attestation_challenge: createAttestationChallenge(attestationDeps, request.params.id) });
      },
    );

    app.post(
      '/orgs/:id/credential',
      {
        ...limited,
        bodyLimit: 64 * 1024,
        config: { ...limited.config, oauthInvalidRequest: 'invalid_credential_request' },
        schema: {
          params: zOrgParams,
          headers: zContentType('application/json', 'OpenID4VCI 1.0 §8.2'),
          body: zCredentialRequest,
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const token = await authorizeCredentialRequest(dpopDeps, id, {
          url: endpointUrl(id, 'credential'),
          headers: protocolHttp(request).headers,
        });
        const answer = await issuerService.requestCredential(deps, id, token, request.body);
        reply.header('cache-control', 'no-store');
        // OpenID4VCI 1.0 §8.3: an encrypted response is the JWE itself, as application/jwt.
        return 'jwe' in answer ? reply.type('application/jwt').send(answer.jwe) : reply.send(answer.json);
      },
    );

    app.get('/orgs/:id/vct/:slug', { schema: { params: zVctParams } }, async (request, reply) => {
      const { id, slug } = request.params;
      const metadata = await issuerService.typeMetadata(deps, id, slug);
      reply.header('cache-control', 'public, max-age=300');
      if (!metadata) throw new AppError('CREDENTIAL_SCHEMA_NOT_FOUND');
      return metadata;
    });

    // The platform schemas' shared types (KYC, certificates): one `vct` whoever issues them.
    app.get('/vct/:slug', { schema: { params: zVctParams.pick({ slug: true }) } }, async (request, reply) => {
      const { slug } = request.params;
      const metadata = await issuerService.typeMetadata(deps, null, slug);
      reply.header('cache-control', 'public, max-age=300');
      if (!metadata) throw new AppError('CREDENTIAL_SCHEMA_NOT_FOUND');
      return metadata;
    });

    // Checked against the list's revision on every request: a revocation is visible at once (the token's
    // `ttl` still tells relying parties how long they may cache it).
    app.get(
      '/orgs/:id/status-lists/:statusListId',
      { schema: { params: zStatusListParams } },
      async (request, reply) => {
        const { id, statusListId } = request.params;
        const token = await issuerService.statusListToken(deps, id, statusListId);
        return reply.header('cache-control', 'no-cache').type('application/statuslist+jwt').send(token);
      },
    );
    // The organization's first list at the URI credentials carried before organizations had several lists.
    app.get('/orgs/:id/status-list', orgRoute, async (request, reply) => {
      const token = await issuerService.statusListToken(deps, request.params.id);
      return reply.header('cache-control', 'no-cache').type('application/statuslist+jwt').send(token);
    });
  };
}
