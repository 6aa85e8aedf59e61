import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  type DatabaseHandle,
  getOrCreateSecret,
  migrateDatabase,
  openDatabase,
  SecretBox,
  withAdvisoryLock,
} from '@cp/db';
import type { AccountCenter } from '@cp/id';
import type { Config } from './config/env.ts';
import type { AppContext } from './context.ts';
import { JobQueue } from './jobs/job-queue.ts';
import type { Logger } from './lib/logger.ts';
import { loadOrCreateMasterKey } from './lib/master-key.ts';
import { createRateLimitStore, MemoryRateLimitStore } from './lib/rate-limit-store.ts';
import { Mailbox } from './mail/mailbox.ts';
import { Mailer } from './mail/mailer.ts';
import { AccessTokens } from './modules/auth/access-tokens.ts';
import { OidcClient } from './modules/auth/oidc-client.ts';
import { CLIENT_ERROR_QUEUE, deliverClientError } from './modules/client-errors/client-errors.worker.ts';
import { seedPlatformCredentialSchemas } from './modules/credential-schemas/credential-schemas.service.ts';
import { registerCredentialDeliveryWorker } from './modules/credentials/credential-deliveries.worker.ts';
import { registerCredentialImportWorker } from './modules/credentials/credential-imports.worker.ts';
import { registerEmailCodeWorker } from './modules/issuer/email-code.worker.ts';
import { KYB_DECISION_MAIL_QUEUE, sendKybDecisionMail } from './modules/kyb/kyb.mail.ts';
import { CLEANUP_QUEUE, compactCounters, deleteExpiredRows } from './modules/maintenance/maintenance.service.ts';
import { registerInvitationMailWorker } from './modules/members/invitations.worker.ts';
import { LocalKeyStore } from './modules/organization-keys/key-store.ts';
import { backfillKeys, KEY_BACKFILL_QUEUE } from './modules/organization-keys/organization-keys.service.ts';
import { loadPlatformCa } from './modules/organization-keys/platform-ca.ts';
import { refreshTrustedLists, TRUSTED_LIST_REFRESH_QUEUE } from './modules/trust-anchors/trust-anchors.service.ts';
import { registerWebhookWorker } from './modules/webhooks/webhooks.worker.ts';
import { buildServiceDeps } from './service-deps.ts';
import { createStorage } from './storage/create-storage.ts';

export type { AccountCenter };

export interface Runtime {
  ctx: AppContext;
  secretBox: SecretBox;
  mailer: Mailer;
  accountCenter: AccountCenter | undefined;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** An already-open database (tests); otherwise opened from the configuration. */
  database?: DatabaseHandle;
  adminToken?: string;
}

/**
 * Opens everything the API needs (database, secrets, jobs, mail, account center) in dependency order.
 * `config.processRole` decides what runs here: `all` (HTTP and job handlers, the embedded default), `api`
 * (no job handlers: jobs are only sent) or `worker` (job handlers, no account center).
 */
export async function createRuntime(config: Config, logger: Logger, options: RuntimeOptions = {}): Promise<Runtime> {
  const cleanups: (() => Promise<void> | void)[] = [];
  /** Running jobs may still need mail, storage and the database: they stop first. */
  let stopJobs: (() => Promise<void>) | undefined;
  const close = async () => {
    await stopJobs?.().catch((err: unknown) => logger.warn({ err }, 'error while stopping jobs'));
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (err) {
        logger.warn({ err }, 'error while shutting down');
      }
    }
  };
  try {
    const database =
      options.database ??
      (await openDatabase({
        databaseUrl: config.database.url,
        pgliteDir: config.database.pgliteDir,
        poolMax: config.database.poolMax,
        connectTimeoutMs: config.database.connectTimeoutMs,
      }));
    if (!options.database) cleanups.push(() => database.close());
    const role = config.processRole;
    const secretBox = new SecretBox(loadOrCreateMasterKey(config.masterKey, config.dataDir));
    // Processes that start together take turns here: the first migrates and seeds, the others find it done.
    const { accessTokenKey, offerCodeKey, ca } = await withAdvisoryLock(database, 'bootstrap', async () => {
      await migrateDatabase(database);
      await seedPlatformCredentialSchemas(database.db);
      const secret = async (name: string) =>
        Buffer.from(
          await getOrCreateSecret(database.db, secretBox, name, () => randomBytes(32).toString('base64url')),
          'base64url',
        );
      return {
        accessTokenKey: await secret('api.access-token-key'),
        offerCodeKey: await secret('api.offer-code-key'),
        ca: await loadPlatformCa(database.db, secretBox, config),
      };
    });
    const clientSecret = async () =>
      config.oidc.clientSecret ??
      getOrCreateSecret(database.db, secretBox, `oidc.client-secret.${config.oidc.clientId}`, () =>
        randomBytes(32).toString('base64url'),
      );

    const jobs = new JobQueue(database.executor, logger, {
      work: role !== 'api',
      leaseSeconds: config.jobLeaseSeconds,
      stopTimeoutMs: config.shutdownTimeoutMs,
      batchSize: config.jobBatchSize,
      exclusive: (fn) => withAdvisoryLock(database, 'job-queues', fn),
    });
    await jobs.start();
    stopJobs = () => jobs.stop();
    if (config.errorWebhookUrl) await jobs.register(CLIENT_ERROR_QUEUE, deliverClientError(config.errorWebhookUrl));
    await jobs.register(CLEANUP_QUEUE, async () => {
      logger.info(await deleteExpiredRows(database.db), 'expired rows deleted');
      logger.info(await compactCounters(database.db), 'credential counters compacted');
    });
    await jobs.schedule(CLEANUP_QUEUE, '17 * * * *');
    let mailbox: Mailbox | undefined;
    let smtpUrl = config.mail.smtpUrl;
    if (!smtpUrl) {
      mailbox = new Mailbox(path.join(config.dataDir, 'mailbox'), logger);
      const port = await mailbox.start(config.mail.catcherPort);
      cleanups.push(() => mailbox?.stop());
      smtpUrl = `smtp://127.0.0.1:${port}`;
    }
    const mailer = new Mailer(smtpUrl, config.mail.from);
    cleanups.push(() => mailer.close());
    await jobs.register(KYB_DECISION_MAIL_QUEUE, sendKybDecisionMail(mailer, config.publicUrl));
    const storage = createStorage(config.storage);

    // Rate limits are HTTP: workers count nothing and need no Redis connection.
    const rateLimitStore = role === 'worker' ? new MemoryRateLimitStore() : await createRateLimitStore(config, logger);
    cleanups.push(() => rateLimitStore.close());

    let accountCenter: AccountCenter | undefined;
    // The account center is HTTP: API processes serve it, workers do not. Loaded only here, so that workers
    // and APIs signing in with an external provider never load oidc-provider (test/runtime-imports.test.ts).
    if (config.accountCenter.enabled && role !== 'worker') {
      const { createAccountCenter } = await import('@cp/id');
      accountCenter = await createAccountCenter({
        db: database.db,
        secretBox,
        issuer: config.accountCenter.publicUrl,
        clients: [
          {
            client_id: config.oidc.clientId,
            client_secret: await clientSecret(),
            redirect_uris: [config.oidc.redirectUrl],
            post_logout_redirect_uris: [`${config.publicUrl}/intro`],
            // OpenID Connect Back-Channel Logout: a password change ends the console's sessions too.
            backchannel_logout_uri: `${config.publicUrl}/api/auth/backchannel-logout`,
          },
        ],
        allowedReturnOrigins: [new URL(config.publicUrl).origin],
        logger: logger.child({ app: 'id' }),
        cookieSecure: config.accountCenter.publicUrl.startsWith('https://'),
        failureStore: rateLimitStore.failures,
        // Confirmation links for the account's own address (the account page asks for one).
        sendMail: (mail) => mailer.send(mail),
      });
      const center = accountCenter;
      cleanups.push(() => center.close());
    }

    const keys = {
      db: database.db,
      keyStore: new LocalKeyStore(secretBox),
      ca,
      publicUrl: config.publicUrl,
    };

    // Every organization gets its key pair and certificate (those created before keys existed too).
    await jobs.register(KEY_BACKFILL_QUEUE, async () => {
      const created = await backfillKeys(keys);
      if (created > 0) logger.info({ created }, 'organization keys created');
    });
    await jobs.send(KEY_BACKFILL_QUEUE, {}, { singletonKey: 'backfill' });
    await jobs.schedule(KEY_BACKFILL_QUEUE, '*/10 * * * *');

    const base: Omit<AppContext, 'deps'> = {
      config,
      database,
      secretBox,
      logger,
      oidc: new OidcClient({
        issuer: config.oidc.issuer,
        clientId: config.oidc.clientId,
        clientSecret,
        logger,
      }),
      accessTokens: new AccessTokens(accessTokenKey, config.publicUrl, config.tokens.accessTtlSeconds),
      jobs,
      keys,
      secrets: { offerCodeKey },
      storage,
      mailbox: config.mail.devMailbox ? mailbox : undefined,
      rateLimitStore,
      adminToken: options.adminToken,
    };
    const ctx: AppContext = { ...base, deps: buildServiceDeps(base, mailer) };
    // Organizations' trusted lists (ETSI TS 119 602), read again every hour.
    await jobs.register(TRUSTED_LIST_REFRESH_QUEUE, () => refreshTrustedLists(ctx.deps.trustAnchors, logger));
    await jobs.schedule(TRUSTED_LIST_REFRESH_QUEUE, '41 * * * *');
    await registerCredentialImportWorker(ctx);
    await registerCredentialDeliveryWorker(ctx);
    await registerWebhookWorker(ctx);
    await registerInvitationMailWorker(ctx);
    await registerEmailCodeWorker(ctx);
    return { ctx, secretBox, mailer, accountCenter, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Graceful shutdown on SIGTERM/SIGINT: `stop` runs once (stop accepting, let in-flight work finish, release
 * jobs, close the database), then the process exits. A second signal, or `stop` outlasting the timeout,
 * exits at once.
 */
export function handleShutdownSignals(logger: Logger, timeoutMs: number, stop: () => Promise<void>) {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    // Late failures of work abandoned at the timeout (its database is closing) must not turn a clean exit into a crash.
    process.on('unhandledRejection', (err) => logger.warn({ err }, 'error while shutting down (ignored)'));
    setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown took too long: exiting now');
      process.exit(1);
    }, timeoutMs + 5000).unref();
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
