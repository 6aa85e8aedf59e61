import {
  zCreateCredentialSchemaRequest,
  zCredentialSchema,
  zCredentialSchemaPage,
  zIdParams,
  zPageQuery,
} from '@cp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { apiKeyOrUserSecurity, authenticate, requireOrganization } from '../../plugins/authenticate.ts';
import { presentCredentialSchema } from './credential-schemas.presenter.ts';
import * as credentialSchemasService from './credential-schemas.service.ts';

const zQuery = z.object({ t: z.string().max(32).optional() });

export function credentialSchemasRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.database.db;
  return async (app) => {
    app.addHook('preHandler', authenticate(ctx, { allowApiKey: true }));
    app.get(
      '/schemas',
      {
        config: { role: 'member' }, // schemas: every member (and API keys)
        schema: {
          tags: ['credential-schemas'],
          security: apiKeyOrUserSecurity,
          summary: "The organization's credential schemas and the platform's, newest first",
          querystring: zPageQuery,
          response: { 200: zCredentialSchemaPage },
        },
      },
      async (request) => {
        const { organizationId } = requireOrganization(request);
        const page = await credentialSchemasService.findCredentialSchemas(db, organizationId, request.query);
        return { ...page, results: page.records.map(presentCredentialSchema) };
      },
    );
    app.get(
      '/schemas/:id',
      {
        config: { role: 'member' }, // schemas: every member (and API keys)
        schema: {
          tags: ['credential-schemas'],
          security: apiKeyOrUserSecurity,
          summary: 'One credential schema with its attributes',
          params: zIdParams,
          querystring: zQuery,
          response: { 200: zCredentialSchema },
        },
      },
      async (request) => {
        const { organizationId } = requireOrganization(request);
        return presentCredentialSchema(
          await credentialSchemasService.getCredentialSchema(db, { organizationId, id: request.params.id }),
        );
      },
    );
    app.post(
      '/schemas',
      {
        config: { role: 'member' }, // schemas: every member (and API keys)
        schema: {
          tags: ['credential-schemas'],
          security: apiKeyOrUserSecurity,
          summary: 'Publish a credential schema (immutable once published)',
          body: zCreateCredentialSchemaRequest,
          response: { 201: zCredentialSchema },
        },
      },
      async (request, reply) => {
        const record = await credentialSchemasService.createCredentialSchema(
          db,
          requireOrganization(request),
          request.body,
        );
        return reply.status(201).send(presentCredentialSchema(record));
      },
    );
    app.delete(
      '/schemas/:id',
      {
        config: { role: 'member' }, // schemas: every member (and API keys)
        schema: {
          tags: ['credential-schemas'],
          security: apiKeyOrUserSecurity,
          summary: 'Delete an own credential schema; credentials already issued stay valid',
          params: zIdParams,
          querystring: zQuery,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await credentialSchemasService.deleteCredentialSchema(db, requireOrganization(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
