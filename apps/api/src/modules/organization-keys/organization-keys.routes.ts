import { zIdParams } from '@cp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import * as organizationsService from '../organizations/organizations.service.ts';
import { issuerUrl, organizationDid } from './identifiers.ts';
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
    app.addHook('onSend', async (_request, reply) => {
      reply.header('access-control-allow-origin', '*');
    });
    app.get(
      '/orgs/:id/did.json',
      { schema: { tags: ['issuer'], summary: 'did:web document of an organization', params: zIdParams } },
      async (request, reply) => {
        const organization = await organizationsService.getPublicOrganization(ctx.database.db, request.params.id);
        await keysService.ensureActiveKey(deps(), organization.id);
        const did = organizationDid(ctx.config.publicUrl, organization.id);
        const keys = await keysService.listPublicKeys(deps(), organization.id);
        const methods = keys.map((key) => ({
          id: `${did}#${key.jwk.kid}`,
          type: 'JsonWebKey2020',
          controller: did,
          publicKeyJwk: { kty: key.jwk.kty, crv: key.jwk.crv, x: key.jwk.x, y: key.jwk.y, kid: key.jwk.kid },
        }));
        const active = methods.filter((_, index) => keys[index]?.active).map((m) => m.id);
        return reply
          .header('cache-control', PUBLIC_CACHE)
          .type('application/did+json')
          .send({
            '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
            id: did,
            alsoKnownAs: [issuerUrl(ctx.config.publicUrl, organization.id)],
            verificationMethod: methods,
            // Retired keys stay listed as verification methods (old credentials), but only the active one asserts.
            assertionMethod: active,
            authentication: active,
          });
      },
    );

    app.get(
      '/.well-known/jwt-vc-issuer/orgs/:id',
      { schema: { tags: ['issuer'], summary: 'JWT VC Issuer Metadata of an organization', params: zIdParams } },
      async (request, reply) => {
        const organization = await organizationsService.getPublicOrganization(ctx.database.db, request.params.id);
        await keysService.ensureActiveKey(deps(), organization.id);
        const keys = await keysService.listPublicKeys(deps(), organization.id);
        return reply.header('cache-control', PUBLIC_CACHE).send({
          issuer: issuerUrl(ctx.config.publicUrl, organization.id),
          jwks: { keys: keys.map((k) => k.jwk) },
          // Not part of the standard metadata: lets a verifier see the platform's KYB decision.
          organization: {
            name: organization.name,
            verified: organization.verifiedAt !== null,
            verification_status: organization.verificationStatus,
          },
        });
      },
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
  };
}
