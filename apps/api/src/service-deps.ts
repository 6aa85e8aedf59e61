import { readFileSync } from 'node:fs';
import { pemCertificates } from '@cp/credentials';
import type { AppContext } from './context.ts';
import { httpFetcher } from './lib/resource-fetcher.ts';
import type { Mailer } from './mail/mailer.ts';
import type { AuthDeps } from './modules/auth/auth.service.ts';
import type { DeliverDeps, DeliveryDeps, ResendDeps } from './modules/credentials/credential-deliveries.service.ts';
import {
  CREDENTIAL_DELIVERY_QUEUE,
  type CredentialDeliveryJob,
} from './modules/credentials/credential-deliveries.worker.ts';
import { configureImportLimits, type ImportDeps } from './modules/credentials/credential-imports.service.ts';
import { CREDENTIAL_IMPORT_QUEUE, type CredentialImportJob } from './modules/credentials/credential-imports.worker.ts';
import type { MailPreviewDeps } from './modules/credentials/credential-mail.service.ts';
import type { CredentialDeps } from './modules/credentials/credentials.service.ts';
import type {
  AuthorizationDeps,
  EmailCodeJob,
  EmailCodeMailDeps,
} from './modules/issuer/authorization-code.service.ts';
import { EMAIL_CODE_QUEUE } from './modules/issuer/email-code.worker.ts';
import type { ReviewDeps } from './modules/kyb/kyb.service.ts';
import type { MediaDeps } from './modules/media/media.service.ts';
import type { InvitationDeps, InvitationMailDeps, InvitationMailJob } from './modules/members/invitations.service.ts';
import { INVITATION_MAIL_QUEUE } from './modules/members/invitations.worker.ts';
import type { TrustAnchorDeps } from './modules/trust-anchors/trust-anchors.service.ts';
import type { VerifierDeps } from './modules/verifications/openid4vp.service.ts';
import { platformFetcher, platformStatusLists } from './modules/verifications/platform-fetcher.ts';
import { platformAnchors, verifierTrust } from './modules/verifications/verifier-trust.ts';
import {
  WEBHOOK_DELIVERY_QUEUE,
  type WebhookDeliveryJob,
  type WebhookDeps,
  type WebhookEndpointDeps,
} from './modules/webhooks/webhooks.service.ts';

/**
 * The composition root: every service's dependency object, built once per process from the context (the
 * runtime calls this; tests reach the same objects through `runtime.ctx.deps`). Route files and job handlers
 * take them from `ctx.deps` and never assemble their own.
 *
 * Convention for service functions: the first parameter is `db: Database` when the database is all the
 * function needs, otherwise `deps`, typed by an `XDeps` interface declared in the service's own file (a
 * function needing only some of it takes `Pick<XDeps, …>`); then the organization id, then the input.
 * Services never see Fastify or the `AppContext`: only the objects built here.
 */
export interface ServiceDeps {
  auth: AuthDeps;
  webhooks: WebhookDeps;
  webhookEndpoints: WebhookEndpointDeps;
  credentials: CredentialDeps;
  /** Queuing credential e-mails (routes). */
  deliveries: DeliveryDeps;
  /** Sending one credential e-mail (the delivery job). */
  deliver: DeliverDeps;
  resend: ResendDeps;
  imports: ImportDeps;
  mailPreview: MailPreviewDeps;
  invitations: InvitationDeps;
  invitationMail: InvitationMailDeps;
  /** The issuer, with the authorization code flow's e-mail one-time codes (queued). */
  issuer: AuthorizationDeps;
  /** Sending one e-mail one-time code (its job). */
  issuerEmailCode: EmailCodeMailDeps;
  verifier: VerifierDeps;
  trustAnchors: TrustAnchorDeps;
  kybReview: ReviewDeps;
  media: MediaDeps;
}

export function buildServiceDeps(ctx: Omit<AppContext, 'deps'>, mailer: Pick<Mailer, 'send'>): ServiceDeps {
  const { config, jobs } = ctx;
  const db = ctx.database.db;
  const publicUrl = config.publicUrl;
  // Requests to user-supplied URLs (trusted lists, DID documents, issuer metadata, status lists).
  const outbound = {
    allowHttp: !config.isProduction,
    allowPrivateNetworks: config.outbound.allowPrivateNetworks,
    lookupsAtOnce: config.outbound.lookupsAtOnce,
  };

  const webhooks: WebhookDeps = {
    db,
    enqueue: async (deliveryId, startAfter) => {
      await jobs.send<WebhookDeliveryJob>(
        WEBHOOK_DELIVERY_QUEUE,
        { deliveryId },
        { singletonKey: deliveryId, ...(startAfter ? { startAfter } : {}) },
      );
    },
    logger: ctx.logger,
  };
  const credentials: CredentialDeps = {
    db,
    publicUrl,
    statusListSize: config.credentialEngine.statusListSize,
    offerTtlDays: config.credentialEngine.offerTtlDays,
    offerCodeKey: ctx.secrets.offerCodeKey,
    webhooks,
  };
  const deliveries: DeliveryDeps = {
    db,
    enqueue: async (deliveryId) => {
      await jobs.send<CredentialDeliveryJob>(CREDENTIAL_DELIVERY_QUEUE, { deliveryId }, { singletonKey: deliveryId });
    },
  };
  const issuer: AuthorizationDeps = {
    db,
    keys: ctx.keys,
    credentials,
    publicUrl,
    statusListTtlSeconds: config.credentialEngine.statusListTtlSeconds,
    statusListSize: config.credentialEngine.statusListSize,
    secretBox: ctx.secretBox,
    // One job per code sent (the sealed code differs every time).
    enqueueEmailCode: async (job) => {
      await jobs.send<EmailCodeJob>(EMAIL_CODE_QUEUE, job, { singletonKey: job.sealedCode.slice(-32) });
    },
  };
  const platformList = config.credentialEngine.verifierTrustAnchorsFile;
  configureImportLimits(config.credentialImports);

  return {
    auth: {
      db,
      oidc: ctx.oidc,
      accessTokens: ctx.accessTokens,
      logger: ctx.logger,
      scopes: config.oidc.scopes,
      defaultRedirectUrl: config.oidc.redirectUrl,
      allowedRedirectOrigins: [new URL(publicUrl).origin],
      refreshTtlDays: config.tokens.refreshTtlDays,
      // Registered at the bundled account center as the console client's post_logout_redirect_uri (runtime.ts).
      postLogoutRedirectUrl: `${publicUrl}/intro`,
    },
    webhooks,
    webhookEndpoints: { db, secretBox: ctx.secretBox, allowPrivateNetworks: config.outbound.allowPrivateNetworks },
    credentials,
    deliveries,
    deliver: { db, storage: ctx.storage, mailer, credentials },
    resend: { ...deliveries, credentials },
    imports: {
      db,
      storage: ctx.storage,
      statusListSize: config.credentialEngine.statusListSize,
      parallelBatches: ctx.database.kind === 'postgresql' ? 2 : 1,
      enqueue: async (importId) => {
        await jobs.send<CredentialImportJob>(CREDENTIAL_IMPORT_QUEUE, { importId }, { singletonKey: importId });
      },
    },
    mailPreview: { db, storage: ctx.storage, publicUrl, offerTtlDays: config.credentialEngine.offerTtlDays },
    invitations: {
      db,
      publicUrl,
      secretBox: ctx.secretBox,
      // One job per link (singleton key: invitation and link).
      enqueueMail: async (job) => {
        await jobs.send<InvitationMailJob>(INVITATION_MAIL_QUEUE, job, {
          singletonKey: `${job.invitationId}:${job.sealedToken.slice(-16)}`,
        });
      },
    },
    invitationMail: { db, publicUrl, secretBox: ctx.secretBox, mailer },
    issuer,
    issuerEmailCode: { db, secretBox: ctx.secretBox, mailer },
    verifier: {
      db,
      keys: ctx.keys,
      secretBox: ctx.secretBox,
      publicUrl,
      webhooks,
      trust: verifierTrust({
        db,
        publicUrl,
        fetcher: platformFetcher({ issuer, keys: ctx.keys, publicUrl, http: httpFetcher(outbound) }),
        statusLists: platformStatusLists({ issuer, publicUrl }),
        // The platform CA, and the platform-wide list (read once at boot); each organization adds its own.
        platformAnchors: platformAnchors(
          ctx.keys.ca.certificatePem,
          platformList ? pemCertificates(readFileSync(platformList, 'utf8')) : [],
        ),
        allowHttp: outbound.allowHttp,
      }),
    },
    trustAnchors: { db, fetcher: httpFetcher({ ...outbound, maxBytes: 5_000_000 }) },
    kybReview: { db, config, jobs },
    media: { db, storage: ctx.storage },
  };
}
