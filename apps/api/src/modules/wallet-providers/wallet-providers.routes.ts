import { zCreateWalletProviderRequest, zIdParams, zWalletProvider, zWalletProviderList } from '@cp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { apiKeyOrUserSecurity, authenticate, requireOrganization } from '../../plugins/authenticate.ts';
import { presentWalletProvider } from './wallet-providers.presenter.ts';
import * as walletProvidersService from './wallet-providers.service.ts';

/**
 * The organization's trusted wallet providers (its OpenID4VCI issuer's wallet and key attestations), addressed
 * like trust anchors: the organization is the caller's (`CurrentIdentity`, or the API key's). Admins only;
 * another organization's provider answers 404. Changes apply to the next token or credential request.
 */
export function walletProvidersRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.database.db;
  const preHandler = authenticate(ctx, { allowApiKey: true });
  return async (app) => {
    app.get(
      '/wallet-providers',
      {
        config: { role: 'admin' }, // trust settings: admins only (API keys refused)
        preHandler,
        schema: {
          tags: ['wallet-providers'],
          summary: "The organization's trusted wallet providers",
          security: apiKeyOrUserSecurity,
          response: { 200: zWalletProviderList },
        },
      },
      async (request) => {
        const { organizationId } = requireOrganization(request);
        const rows = await walletProvidersService.findWalletProviders(db, organizationId);
        return { results: rows.map(presentWalletProvider), total: rows.length };
      },
    );
    app.post(
      '/wallet-providers',
      {
        config: { role: 'admin' }, // trust settings: admins only (API keys refused)
        preHandler,
        schema: {
          tags: ['wallet-providers'],
          summary: 'Trust a wallet provider',
          description:
            'A wallet attestation (`OAuth-Client-Attestation`, OAuth 2.0 Attestation-Based Client Authentication) ' +
            'or a key attestation (`key_attestation` in a key proof, OpenID4VCI 1.0 Appendix D) is trusted when its ' +
            "`x5c` signing certificate is this certificate or chains to it. `certificate_pem`: the provider's CA " +
            'certificate (basicConstraints cA, keyCertSign) or its attestation signing certificate (digitalSignature), ' +
            'valid now. 422 WALLET_PROVIDER_INVALID says why a certificate cannot be used; 409 ' +
            'WALLET_PROVIDER_DUPLICATE, 409 WALLET_PROVIDER_LIMIT_REACHED (50). Recorded in the activity log.',
          security: apiKeyOrUserSecurity,
          body: zCreateWalletProviderRequest,
          response: { 201: zWalletProvider },
        },
      },
      async (request, reply) => {
        const scope = requireOrganization(request);
        const row = await walletProvidersService.createWalletProvider(db, scope, request.body);
        return reply.status(201).send(presentWalletProvider(row));
      },
    );
    app.delete(
      '/wallet-providers/:id',
      {
        config: { role: 'admin' }, // trust settings: admins only (API keys refused)
        preHandler,
        schema: {
          tags: ['wallet-providers'],
          summary: 'Stop trusting a wallet provider (credentials keep which provider vouched for them)',
          security: apiKeyOrUserSecurity,
          params: zIdParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const { organizationId, actor } = requireOrganization(request);
        await walletProvidersService.deleteWalletProvider(db, organizationId, request.params.id, actor);
        return reply.status(204).send(null);
      },
    );
  };
}
