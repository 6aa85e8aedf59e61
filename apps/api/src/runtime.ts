import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { type DatabaseHandle, getOrCreateSecret, migrateDatabase, openDatabase, SecretBox } from '@cp/db';
import { createAccountCenter } from '@cp/id';
import type { Config } from './config/env.ts';
import type { AppContext } from './context.ts';
import { JobQueue } from './jobs/job-queue.ts';
import type { Logger } from './lib/logger.ts';
import { loadOrCreateMasterKey } from './lib/master-key.ts';
import { Mailbox } from './mail/mailbox.ts';
import { Mailer } from './mail/mailer.ts';
import { AccessTokens } from './modules/auth/access-tokens.ts';
import { OidcClient } from './modules/auth/oidc-client.ts';
import { CLIENT_ERROR_QUEUE, deliverClientError } from './modules/client-errors/client-errors.worker.ts';
import { seedPlatformCredentialSchemas } from './modules/credential-schemas/credential-schemas.service.ts';
import { registerCredentialDeliveryWorker } from './modules/credentials/credential-deliveries.worker.ts';
import { registerCredentialImportWorker } from './modules/credentials/credential-imports.worker.ts';
import { KYB_DECISION_MAIL_QUEUE, sendKybDecisionMail } from './modules/kyb/kyb.mail.ts';
import { CLEANUP_QUEUE, deleteExpiredRows } from './modules/maintenance/maintenance.service.ts';
import { LocalKeyStore } from './modules/organization-keys/key-store.ts';
import { backfillKeys, KEY_BACKFILL_QUEUE } from './modules/organization-keys/organization-keys.service.ts';
import { loadPlatformCa } from './modules/organization-keys/platform-ca.ts';
import { registerWebhookWorker } from './modules/webhooks/webhooks.worker.ts';
import { createStorage } from './storage/storage.ts';

export type AccountCenter = Awaited<ReturnType<typeof createAccountCenter>>;

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

/** Opens everything the API needs (database, secrets, jobs, mail, account center) in dependency order. */
export async function createRuntime(config: Config, logger: Logger, options: RuntimeOptions = {}): Promise<Runtime> {
  const cleanups: (() => Promise<void> | void)[] = [];
  const close = async () => {
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
      }));
    if (!options.database) cleanups.push(() => database.close());
    await migrateDatabase(database);
    await seedPlatformCredentialSchemas(database.db);

    const secretBox = new SecretBox(loadOrCreateMasterKey(config.masterKey, config.dataDir));
    const accessTokenKey = Buffer.from(
      await getOrCreateSecret(database.db, secretBox, 'api.access-token-key', () =>
        randomBytes(32).toString('base64url'),
      ),
      'base64url',
    );
    const clientSecret = async () =>
      config.oidc.clientSecret ??
      getOrCreateSecret(database.db, secretBox, `oidc.client-secret.${config.oidc.clientId}`, () =>
        randomBytes(32).toString('base64url'),
      );

    const jobs = new JobQueue(database.executor, logger);
    await jobs.start();
    cleanups.push(() => jobs.stop());
    if (config.errorWebhookUrl) await jobs.register(CLIENT_ERROR_QUEUE, deliverClientError(config.errorWebhookUrl));
    await jobs.register(CLEANUP_QUEUE, async () => {
      logger.info(await deleteExpiredRows(database.db), 'expired rows deleted');
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

    let accountCenter: AccountCenter | undefined;
    if (config.accountCenter.enabled) {
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
          },
        ],
        allowedReturnOrigins: [new URL(config.publicUrl).origin],
        logger: logger.child({ app: 'id' }),
        cookieSecure: config.accountCenter.publicUrl.startsWith('https://'),
      });
      const center = accountCenter;
      cleanups.push(() => center.close());
    }

    const keys = {
      db: database.db,
      keyStore: new LocalKeyStore(secretBox),
      ca: await loadPlatformCa(database.db, secretBox, config),
      publicUrl: config.publicUrl,
    };

    const offerCodeKey = Buffer.from(
      await getOrCreateSecret(database.db, secretBox, 'api.offer-code-key', () =>
        randomBytes(32).toString('base64url'),
      ),
      'base64url',
    );

    // Every organization gets its key pair and certificate (those created before keys existed too).
    await jobs.register(KEY_BACKFILL_QUEUE, async () => {
      const created = await backfillKeys(keys);
      if (created > 0) logger.info({ created }, 'organization keys created');
    });
    await jobs.send(KEY_BACKFILL_QUEUE, {}, { singletonKey: 'backfill' });
    await jobs.schedule(KEY_BACKFILL_QUEUE, '*/10 * * * *');

    const ctx: AppContext = {
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
      adminToken: options.adminToken,
    };
    await registerCredentialImportWorker(ctx);
    await registerCredentialDeliveryWorker(ctx, mailer);
    await registerWebhookWorker(ctx);
    return { ctx, secretBox, mailer, accountCenter, close };
  } catch (err) {
    await close();
    throw err;
  }
}
