import { LANGUAGES, type PublicConfig, zPublicConfig } from '@cp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';

/** Runtime configuration for the web apps: one console build works in every deployment. */
export function publicConfig(ctx: AppContext): PublicConfig {
  const center = ctx.config.accountCenterUrl ?? null;
  return {
    account_center_url: center,
    organization_create_url: center ? `${center}/organizations/new` : null,
    password_change_url: center ? `${center}/account/password` : null,
    wallet_url: ctx.config.wallet.publicUrl,
    languages: [...LANGUAGES],
    upload_max_bytes: ctx.config.uploads.maxBytes,
    upload_max_files: ctx.config.uploads.maxFiles,
  };
}

export function configRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/config',
      { schema: { tags: ['platform'], summary: 'Public runtime configuration', response: { 200: zPublicConfig } } },
      async () => publicConfig(ctx),
    );
  };
}
