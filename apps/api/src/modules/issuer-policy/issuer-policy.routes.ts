import { zIdParams, zIssuerPolicy, zUpdateIssuerPolicyRequest } from '@cp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authenticate, requireUser } from '../../plugins/authenticate.ts';
import * as issuerPolicyService from './issuer-policy.service.ts';

/**
 * The organization's issuer policy (HAIP 1.0): what its OpenID4VCI issuer demands of wallets. Every member
 * reads it; admins change it. Applied from the next token request, in every API process (read per request).
 */
export function issuerPolicyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.database.db;
  return async (app) => {
    app.addHook('preHandler', authenticate(ctx));
    app.get(
      '/organizations/:id/issuer-policy',
      {
        config: { role: 'member', organizationParam: 'id' }, // every member sees how credentials are protected
        schema: {
          tags: ['organizations'],
          summary: "The organization's issuer policy (HAIP 1.0)",
          params: zIdParams,
          response: { 200: zIssuerPolicy },
        },
      },
      async (request) =>
        issuerPolicyService.presentIssuerPolicy(
          await issuerPolicyService.getIssuerPolicy(db, { organizationId: request.params.id, ...requireUser(request) }),
        ),
    );
    app.put(
      '/organizations/:id/issuer-policy',
      {
        config: { role: 'admin', organizationParam: 'id' }, // how wallets must prove themselves: admins
        schema: {
          tags: ['organizations'],
          summary: "Set the organization's issuer policy (admins)",
          description:
            '`dpop_required`: the OpenID4VCI token endpoint refuses a request without a DPoP proof (RFC 9449) with ' +
            '`invalid_dpop_proof`, so every access token is bound to the wallet key (`token_type` `DPoP`) and is ' +
            'refused at the credential endpoint without a matching proof. Wallets that send DPoP get bound tokens ' +
            'whatever the policy. `wallet_attestation_required`: the token endpoint refuses a request without a wallet ' +
            'attestation (`OAuth-Client-Attestation` + `OAuth-Client-Attestation-PoP`, OAuth 2.0 Attestation-Based ' +
            "Client Authentication) signed under one of the organization's trusted wallet providers " +
            '(`/api/wallet-providers`) with `invalid_client` (401). Wallets that send a valid attestation have it ' +
            'recorded on the credential whatever the policy; an invalid one is always refused. ' +
            'A change is recorded in the activity log (`organization.issuer_policy_changed`).',
          params: zIdParams,
          body: zUpdateIssuerPolicyRequest,
          response: { 200: zIssuerPolicy },
        },
      },
      async (request) =>
        issuerPolicyService.presentIssuerPolicy(
          await issuerPolicyService.updateIssuerPolicy(
            db,
            { organizationId: request.params.id, ...requireUser(request) },
            request.body,
          ),
        ),
    );
  };
}
