import { readFileSync } from 'node:fs';
import { zIdParams } from '@cp/contracts';
import { pemCertificates } from '@cp/credentials';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { publicCors } from '../../plugins/public-cors.ts';
import * as keysService from './organization-keys.service.ts';

/** Cache briefly: keys change only on rotation, and verifiers re-fetch on an unknown kid. */
const PUBLIC_CACHE = 'public, max-age=300';

/**
 * What an organization publishes as an issuer, readable by anyone: its did:web document and its JWT VC
 * Issuer Metadata (SD-JWT VC §5), both listing every key it ever signed with.
 */
export function organizationKeysRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = () => ctx.keys;
  return async (app) => {
    // Public documents: wallets and verifiers in browsers on other origins read them too.
    publicCors(app);
    app.get(
      '/orgs/:id/did.json',
      { schema: { tags: ['issuer'], summary: 'did:web document of an organization', params: zIdParams } },
      async (request, reply) =>
        reply
          .header('cache-control', PUBLIC_CACHE)
          .type('application/did+json')
          .send(await keysService.didDocument(deps(), request.params.id)),
    );

    app.get(
      '/.well-known/jwt-vc-issuer/orgs/:id',
      { schema: { tags: ['issuer'], summary: 'JWT VC Issuer Metadata of an organization', params: zIdParams } },
      async (request, reply) =>
        reply.header('cache-control', PUBLIC_CACHE).send(await keysService.issuerMetadata(deps(), request.params.id)),
    );

    app.get(
      '/api/platform/ca.pem',
      { schema: { tags: ['issuer'], summary: 'The platform certificate authority (trust anchor for x5c chains)' } },
      async (_request, reply) =>
        reply
          .header('cache-control', 'public, max-age=3600')
          .header('content-disposition', 'attachment; filename="platform-ca.pem"')
          .type('application/x-pem-file')
          .send(ctx.keys.ca.certificatePem),
    );

    // The platform-wide trust anchors (VERIFIER_TRUST_ANCHORS_FILE), for wallets to say how sure they are of an issuer.
    const platformList = ctx.config.credentialEngine.verifierTrustAnchorsFile;
    const platformAnchors = platformList ? pemCertificates(readFileSync(platformList, 'utf8')).join('\n') : '';
    app.get(
      '/api/platform/trust-anchors.pem',
      {
        schema: {
          tags: ['issuer'],
          summary: 'The platform-wide trust anchors besides the platform CA (empty when there are none)',
        },
      },
      async (_request, reply) =>
        reply.header('cache-control', 'public, max-age=3600').type('application/x-pem-file').send(platformAnchors),
    );
  };
}
