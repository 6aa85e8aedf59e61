import { detectLanguage, type Language } from '@cp/contracts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors/app-error.ts';
import { registerOAuthErrorHandler } from '../../plugins/oauth-errors.ts';
import { publicCors } from '../../plugins/public-cors.ts';
import { readIssuerPolicy } from '../issuer-policy/issuer-policy.service.ts';
import { issuerUrl } from '../organization-keys/identifiers.ts';
import * as authorizationService from './authorization-code.service.ts';
import { codePage, emailPage, messagePage } from './authorize-page.ts';
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
    // Authorization code grant (RFC 6749 §4.1.3, RFC 7636 §4.5).
    code: z.string().min(1).max(200).optional(),
    redirect_uri: z.string().min(1).max(2000).optional(),
    code_verifier: z.string().min(1).max(200).optional(),
  })
  .loose();

/** Pushed authorization request (RFC 9126 §2.1): form-encoded; @openid4vc/oauth2 parses it, these bound it. */
const zParRequest = z
  .object({
    response_type: z.string().max(50).optional(),
    client_id: z.string().min(1).max(500),
    redirect_uri: z.string().max(2000).optional(),
    code_challenge: z.string().max(200).optional(),
    code_challenge_method: z.string().max(20).optional(),
    scope: z.string().max(2000).optional(),
    authorization_details: z.string().max(8000).optional(),
    issuer_state: z.string().max(200).optional(),
    state: z.string().max(500).optional(),
    dpop_jkt: z.string().max(100).optional(),
  })
  .loose();

const zAuthorizeQuery = z.object({
  client_id: z.string().max(500).optional(),
  request_uri: z.string().max(500).optional(),
  lang: z.string().max(35).optional(),
});

/** The browser flow's forms: read by hand, so that whatever is wrong is answered with the page, not JSON. */
const zFlowForm = z
  .object({
    flow: z.string().max(100).optional(),
    email: z.string().max(400).optional(),
    code: z.string().max(20).optional(),
    lang: z.string().max(35).optional(),
  })
  .loose();

/** The wallet-initiated flow's cookie: its secret, also in the form (double submit against CSRF). */
const FLOW_COOKIE = 'cp_issuer_flow';

function flowCookie(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === FLOW_COOKIE) return value.join('=');
  }
  return undefined;
}

/** A CSP source for where the flow ends: the redirect URI's origin, or its scheme for an app's own scheme. */
function redirectSource(redirectUri: string) {
  const url = new URL(redirectUri);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : url.protocol;
}

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
  /** The organization's issuer policy, read at most once for a request (and only when asked for). */
  const policyOnce = (organizationId: string) => {
    let read: ReturnType<typeof readIssuerPolicy> | undefined;
    return () => {
      read ??= readIssuerPolicy(deps.db, organizationId);
      return read;
    };
  };
  /** An endpoint's public URL, as the metadata announces it: what DPoP proofs name as `htu` (RFC 9449 §4.3). */
  const endpointUrl = (id: string, endpoint: 'token' | 'credential' | 'par') =>
    `${issuerUrl(deps.publicUrl, id)}/${endpoint}`;
  const secureCookie = deps.publicUrl.startsWith('https:');
  /** A page of the browser flow: no script, forms to this issuer and (after the code) to the client only. */
  const sendPage = (
    reply: FastifyReply,
    id: string,
    status: number,
    html: string,
    options: { redirectUri?: string; flow?: string } = {},
  ) => {
    const formAction = ["'self'", ...(options.redirectUri ? [redirectSource(options.redirectUri)] : [])].join(' ');
    reply.header(
      'content-security-policy',
      `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    );
    if (options.flow) {
      reply.header(
        'set-cookie',
        // Path under the issuer URL as served (PUBLIC_URL may carry a path): sent with this issuer's forms only.
        `${FLOW_COOKIE}=${options.flow}; Path=${new URL(issuerUrl(deps.publicUrl, id)).pathname}/authorize; Max-Age=600; HttpOnly; SameSite=Strict${secureCookie ? '; Secure' : ''}`,
      );
    }
    return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
  };
  const sendOutcome = async (
    reply: FastifyReply,
    id: string,
    language: Language,
    outcome: authorizationService.AuthorizeOutcome,
  ) => {
    if (outcome.kind === 'redirect') {
      // 303 after a form post (RFC 9110 §15.4.4), 302 from the authorization request itself.
      return reply.header('cache-control', 'no-store').redirect(outcome.location, 303);
    }
    const organizationName = await authorizationService.organizationName(deps, id);
    const base = `${issuerUrl(deps.publicUrl, id)}/authorize`;
    if (outcome.kind === 'message') {
      return sendPage(reply, id, outcome.status, messagePage(language, organizationName, outcome.message));
    }
    const page = outcome.kind === 'email' ? emailPage : codePage;
    const html = page({
      language,
      organizationName,
      action: `${base}/${outcome.kind}`,
      flow: outcome.flow,
      recipient: { redirectUri: outcome.redirectUri, walletProviderName: outcome.walletProviderName },
      ...(outcome.kind === 'code' && outcome.message ? { message: outcome.message } : {}),
      ...(outcome.kind === 'code' && outcome.attemptsLeft !== undefined ? { attemptsLeft: outcome.attemptsLeft } : {}),
    });
    return sendPage(reply, id, 200, html, { redirectUri: outcome.redirectUri, flow: outcome.flow });
  };
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

    for (const path of [
      '/orgs/:id/token',
      '/orgs/:id/par',
      '/orgs/:id/nonce',
      '/orgs/:id/challenge',
      '/orgs/:id/credential',
    ]) {
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
        const dpopRequest = { url: endpointUrl(id, 'token'), headers: http.headers };
        // OAuth 2.0 Attestation-Based Client Authentication: checked whenever sent, required by the policy.
        const attestationRequest = {
          issuer: issuerUrl(deps.publicUrl, id),
          headers: http.headers,
          clientId: request.body.client_id,
        };
        // What the request carries is checked now (nothing is required yet: undefined means it carries none).
        // Whether the organization's issuer policy demands what it lacks is decided with the code's redemption
        // (TokenRequest): the common path's statement reads the policy itself (fresh, any process); every other
        // path calls `enforce`, which reads it once and asks the same checks again, now refusing as they do.
        const notYet = async () => false;
        const dpopJkt = await checkTokenRequestDpop(dpopDeps, id, dpopRequest, notYet);
        const walletAttestation = await checkTokenRequestWalletAttestation(
          attestationDeps,
          id,
          attestationRequest,
          notYet,
        );
        const lacks = { dpop: dpopJkt === undefined, walletAttestation: walletAttestation === undefined };
        const policy = policyOnce(id);
        const enforce = async () => {
          if (lacks.dpop) {
            await checkTokenRequestDpop(dpopDeps, id, dpopRequest, async () => (await policy()).dpopRequired);
          }
          if (lacks.walletAttestation) {
            await checkTokenRequestWalletAttestation(
              attestationDeps,
              id,
              attestationRequest,
              async () => (await policy()).walletAttestationRequired,
            );
          }
        };
        const protocolRequest = { body: request.body, http, dpopJkt, walletAttestation, policy: { lacks, enforce } };
        const answer =
          request.body.grant_type === authorizationService.AUTHORIZATION_CODE_GRANT
            ? await authorizationService.exchangeAuthorizationCode(deps, id, protocolRequest)
            : await issuerService.exchangePreAuthorizedCode(deps, id, protocolRequest);
        // RFC 9449 §8.2: the nonce for the wallet's next proof (the credential request), saving it a retry.
        if (dpopJkt) reply.header('dpop-nonce', createDpopNonce(dpopDeps, id));
        return reply.header('cache-control', 'no-store').send(answer);
      },
    );

    // RFC 9126: the pushed authorization request, with the token endpoint's DPoP and wallet attestation checks
    // (a DPoP proof here binds the code to its key, RFC 9449 §10).
    app.post(
      '/orgs/:id/par',
      {
        ...limited,
        bodyLimit: 16 * 1024,
        schema: {
          params: zOrgParams,
          headers: zContentType('application/x-www-form-urlencoded', 'RFC 9126 §2.1'),
          body: zParRequest,
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        await issuerService.authorizationServerMetadata(deps, id); // 404 for an unknown issuer
        const http = protocolHttp(request);
        const policy = policyOnce(id);
        const dpopJkt = await checkTokenRequestDpop(
          dpopDeps,
          id,
          { url: endpointUrl(id, 'par'), headers: http.headers },
          async () => !request.body.dpop_jkt && (await policy()).dpopRequired,
        );
        const walletAttestation = await checkTokenRequestWalletAttestation(
          attestationDeps,
          id,
          { issuer: issuerUrl(deps.publicUrl, id), headers: http.headers, clientId: request.body.client_id },
          async () => (await policy()).walletAttestationRequired,
        );
        const answer = await authorizationService.pushAuthorizationRequest(deps, id, {
          body: request.body,
          http,
          dpopJkt,
          walletAttestation,
        });
        if (dpopJkt) reply.header('dpop-nonce', createDpopNonce(dpopDeps, id));
        return reply.status(201).header('cache-control', 'no-store').send(answer);
      },
    );

    // RFC 6749 §4.1.1 with RFC 9126 §4: only pushed requests. Answers a redirect or a page, never JSON.
    app.get(
      '/orgs/:id/authorize',
      { ...limited, schema: { params: zOrgParams, querystring: zAuthorizeQuery } },
      async (request, reply) => {
        const { id } = request.params;
        const language = detectLanguage({
          query: request.query.lang ?? null,
          acceptLanguage: request.headers['accept-language'] ?? null,
        });
        const outcome = await authorizationService.authorize(deps, id, request.query);
        if (outcome.kind === 'redirect')
          return reply.header('cache-control', 'no-store').redirect(outcome.location, 302);
        return sendOutcome(reply, id, language, outcome);
      },
    );

    // The wallet-initiated flow's two forms (authorize-page.ts): the address, then the one-time code.
    const flowRoute = {
      ...limited,
      bodyLimit: 4 * 1024,
      schema: { params: zOrgParams, body: zFlowForm },
    };
    app.post('/orgs/:id/authorize/email', flowRoute, async (request, reply) => {
      const { id } = request.params;
      const language = detectLanguage({
        query: request.body.lang ?? null,
        acceptLanguage: request.headers['accept-language'] ?? null,
      });
      const outcome = await authorizationService.submitEmail(deps, id, {
        flow: request.body.flow ?? '',
        cookie: flowCookie(request),
        email: request.body.email ?? '',
        language,
      });
      return sendOutcome(reply, id, language, outcome);
    });
    app.post('/orgs/:id/authorize/code', flowRoute, async (request, reply) => {
      const { id } = request.params;
      const language = detectLanguage({
        query: request.body.lang ?? null,
        acceptLanguage: request.headers['accept-language'] ?? null,
      });
      const outcome = await authorizationService.submitEmailCode(deps, id, {
        flow: request.body.flow ?? '',
        cookie: flowCookie(request),
        code: (request.body.code ?? '').trim(),
      });
      return sendOutcome(reply, id, language, outcome);
    });

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
