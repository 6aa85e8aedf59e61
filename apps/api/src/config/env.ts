import path from 'node:path';
import { CREDENTIAL_IMPORT_MAX_BYTES, CREDENTIAL_IMPORT_MAX_ROWS } from '@cp/contracts';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const port = z.coerce.number().int().min(0).max(65535);
const httpUrl = z.url({ protocol: /^https?$/ }).transform((v) => v.replace(/\/+$/, ''));
const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

/** Every environment variable the product reads; `.env.example` documents each one. */
const zEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: port.default(3000),
  PUBLIC_URL: z.preprocess(emptyToUndefined, httpUrl.optional()),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
  // Scale-out: what this process runs (all = HTTP and background jobs in one process, as `npm start`).
  PROCESS_ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  WORKER_HEALTH_PORT: z.preprocess(emptyToUndefined, port.optional()),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(10).max(3600).default(60),
  JOB_BATCH_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(25),
  MASTER_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded')
      .optional(),
  ),
  // Account center (the bundled OpenID Connect provider).
  ACCOUNT_CENTER_ENABLED: z.preprocess(emptyToUndefined, bool.optional()),
  ID_PORT: port.default(3001),
  ID_PUBLIC_URL: z.preprocess(emptyToUndefined, httpUrl.optional()),
  // Relying party configuration: any OpenID Connect provider.
  OIDC_ISSUER: z.preprocess(emptyToUndefined, httpUrl.optional()),
  OIDC_CLIENT_ID: z.string().min(1).default('console'),
  OIDC_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().min(16).optional()),
  OIDC_SCOPES: z.string().default('openid profile email organizations'),
  /** Account center address for "create an organization" and "change password"; unset for a generic provider. */
  ACCOUNT_CENTER_URL: z.preprocess(emptyToUndefined, httpUrl.optional()),
  // Wallet.
  WALLET_PORT: port.default(3002),
  WALLET_PUBLIC_URL: z.preprocess(emptyToUndefined, httpUrl.optional()),
  // Sessions.
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  // Mail.
  SMTP_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^smtps?$/ }).optional()),
  SMTP_CATCHER_PORT: port.default(2525),
  MAIL_FROM: z.string().min(3).default('Credential Platform <no-reply@localhost>'),
  // Demo account created on first start of an empty database.
  DEMO_SEED: z.preprocess(emptyToUndefined, bool.optional()),
  DEMO_EMAIL: z.email().default('demo@example.com'),
  DEMO_PASSWORD: z.string().min(8).default('Demo-Passw0rd!'),
  DEMO_ORGANIZATION_NAME: z.string().min(1).max(120).default('Demo Organization'),
  // Platform administrators (KYB review), by e-mail address, comma-separated.
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email())),
  // Files: local disk under DATA_DIR by default, or S3-compatible object storage.
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.preprocess(emptyToUndefined, httpUrl.optional()),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z.preprocess(emptyToUndefined, z.string().min(3).max(63).optional()),
  S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_FORCE_PATH_STYLE: z.preprocess(emptyToUndefined, bool.optional()),
  // CSV import of credentials: the file is streamed to storage, so these bound disk and job time, not memory.
  CREDENTIAL_IMPORT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(8 * 1024 ** 3)
    .default(CREDENTIAL_IMPORT_MAX_BYTES),
  CREDENTIAL_IMPORT_MAX_ROWS: z.coerce.number().int().min(1).max(10_000_000).default(CREDENTIAL_IMPORT_MAX_ROWS),
  UPLOAD_MAX_BYTES: z.coerce.number().int().min(1024).max(100_000_000).default(2_097_152),
  UPLOAD_MAX_FILES: z.coerce.number().int().min(1).max(50).default(5),
  API_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  // Credential engine.
  PLATFORM_CA_CERT_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
  PLATFORM_CA_KEY_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
  STATUS_LIST_SIZE: z.coerce.number().int().min(16).max(8_388_608).default(131_072),
  STATUS_LIST_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  // Verifier: extra PEM certificate authorities trusted for issuers' x5c chains (the platform CA always is).
  VERIFIER_TRUST_ANCHORS_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
  CREDENTIAL_OFFER_TTL_DAYS: z.coerce.number().int().min(1).max(90).default(7),
  // Outbound requests to user-supplied URLs (webhooks, issuers' documents): may they reach non-public addresses?
  OUTBOUND_ALLOW_PRIVATE_NETWORKS: z.preprocess(emptyToUndefined, bool.optional()),
  // libuv's thread pool, which Node sizes from this variable at start (1 to 1,024, 4 by default).
  UV_THREADPOOL_SIZE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1024).default(4)),
  // Operations.
  ERROR_WEBHOOK_URL: z.preprocess(emptyToUndefined, httpUrl.optional()),
  TRUST_PROXY: z.preprocess(emptyToUndefined, bool.optional()),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(50_000_000).default(1_048_576),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  // Shared rate-limit counters for several API processes (unset: each process counts in its own memory).
  REDIS_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^rediss?$/ }).optional()),
  REDIS_KEY_PREFIX: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9:_.-]*$/, 'letters, digits and : _ . - only')
    .default('cp:'),
  // Stricter per-route limits (requests per minute per client address, for each route).
  RATE_LIMIT_SIGN_IN_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  RATE_LIMIT_ISSUER_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_VERIFIER_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_HOLDER_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  CONSOLE_DIST: z.preprocess(emptyToUndefined, z.string().optional()),
  WALLET_DIST: z.preprocess(emptyToUndefined, z.string().optional()),
});

export type Env = z.infer<typeof zEnv>;

export interface Config {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  logLevel: Env['LOG_LEVEL'];
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  database: { url: string | undefined; pgliteDir: string; poolMax: number; connectTimeoutMs: number };
  /** `all`: HTTP and job handlers in one process; `api`: HTTP only; `worker`: job handlers only. */
  processRole: 'all' | 'api' | 'worker';
  /** Worker role: a tiny health/readiness listener on this port (unset: none). */
  workerHealthPort: number | undefined;
  /** How long a job taken by a process that died holds before another process runs it again. */
  jobLeaseSeconds: number;
  /** Jobs of one queue a worker fetches and runs side by side. */
  jobBatchSize: number;
  /** Graceful shutdown: the longest wait for in-flight requests and running jobs. */
  shutdownTimeoutMs: number;
  masterKey: Buffer | undefined;
  accountCenter: { enabled: boolean; port: number; publicUrl: string };
  oidc: {
    issuer: string;
    clientId: string;
    clientSecret: string | undefined;
    scopes: string;
    redirectUrl: string;
  };
  accountCenterUrl: string | undefined;
  wallet: { port: number; publicUrl: string; dist: string };
  consoleDist: string;
  tokens: { accessTtlSeconds: number; refreshTtlDays: number };
  mail: { smtpUrl: string | undefined; catcherPort: number; from: string; devMailbox: boolean };
  demo: { enabled: boolean; email: string; password: string; organizationName: string };
  credentialEngine: {
    caCertFile: string | undefined;
    caKeyFile: string | undefined;
    statusListSize: number;
    statusListTtlSeconds: number;
    offerTtlDays: number;
    verifierTrustAnchorsFile: string | undefined;
  };
  /**
   * Requests to URLs that users supply (webhook deliveries, the verifier's DID documents, issuer metadata and
   * status lists): `allowPrivateNetworks` false refuses loopback, private, link-local and other non-public
   * addresses (SSRF); true only for development and tests, whose receivers listen on loopback.
   */
  /** lookupsAtOnce: host names resolved at once for outbound requests, half of libuv's thread pool (outbound-http.ts). */
  outbound: { allowPrivateNetworks: boolean; lookupsAtOnce: number };
  adminEmails: string[];
  storage: {
    driver: 'local' | 's3';
    localDir: string;
    s3: {
      endpoint: string | undefined;
      region: string;
      bucket: string | undefined;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      forcePathStyle: boolean;
    };
  };
  uploads: { maxBytes: number; maxFiles: number };
  /** Limits of a CSV import of credentials (bytes of the file, data rows). */
  credentialImports: { maxBytes: number; maxRows: number };
  apiKeyRateLimitPerMinute: number;
  errorWebhookUrl: string | undefined;
  trustProxy: boolean;
  bodyLimit: number;
  rateLimitPerMinute: number;
  /**
   * Where every rate limit counts: Redis at `url` (shared by all processes, keys under `keyPrefix`), or
   * process memory when `url` is unset.
   */
  redis: { url: string | undefined; keyPrefix: string };
  /** Per-route limits of the sensitive public endpoints, per minute per client address. */
  rateLimits: { signIn: number; issuer: number; verifier: number; holder: number };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const repoRoot = path.resolve(import.meta.dirname, '../../../..');

/** Parses the environment once at boot; every problem is reported with the variable's name. */
/** The configuration of `npm run worker`: the worker role, which needs PostgreSQL. */
export function loadWorkerConfig(source: Record<string, string | undefined> = process.env): Config {
  if (!source.DATABASE_URL) {
    throw new ConfigError([
      'DATABASE_URL: required by `npm run worker` (PostgreSQL). The embedded PGlite database admits one ' +
        'process; without DATABASE_URL use `npm start`, which runs the jobs in the same process.',
    ]);
  }
  return loadConfig({ ...source, PROCESS_ROLE: 'worker' });
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = zEnv.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  const idPublicUrl = e.ID_PUBLIC_URL ?? `http://localhost:${e.ID_PORT}`;
  const accountCenterEnabled = e.ACCOUNT_CENTER_ENABLED ?? !e.OIDC_ISSUER;
  const problems: string[] = [];
  if (!accountCenterEnabled && !e.OIDC_ISSUER) {
    problems.push('OIDC_ISSUER: required when ACCOUNT_CENTER_ENABLED=false');
  }
  if (e.OIDC_ISSUER && !accountCenterEnabled && !e.OIDC_CLIENT_SECRET) {
    problems.push('OIDC_CLIENT_SECRET: required with an external OIDC_ISSUER');
  }
  if (isProduction && !e.MASTER_KEY) {
    problems.push('MASTER_KEY: required when NODE_ENV=production (32 random bytes, base64)');
  }
  if (Boolean(e.PLATFORM_CA_CERT_FILE) !== Boolean(e.PLATFORM_CA_KEY_FILE)) {
    problems.push('PLATFORM_CA_CERT_FILE, PLATFORM_CA_KEY_FILE: set both or neither');
  }
  if (e.STORAGE_DRIVER === 's3' && !e.S3_BUCKET) problems.push('S3_BUCKET: required when STORAGE_DRIVER=s3');
  if (e.PROCESS_ROLE !== 'all' && !e.DATABASE_URL) {
    problems.push(
      `PROCESS_ROLE=${e.PROCESS_ROLE}: requires DATABASE_URL (PostgreSQL); the embedded PGlite database admits one process, so use PROCESS_ROLE=all (npm start)`,
    );
  }
  if (e.PROCESS_ROLE !== 'all' && !e.MASTER_KEY) {
    problems.push(`MASTER_KEY: required with PROCESS_ROLE=${e.PROCESS_ROLE} (every process must share the same key)`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const dataDir = path.resolve(repoRoot, e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    isProduction,
    logLevel: e.LOG_LEVEL,
    host: e.HOST,
    port: e.PORT,
    publicUrl,
    dataDir,
    database: {
      url: e.DATABASE_URL,
      pgliteDir: path.join(dataDir, 'pglite'),
      poolMax: e.DATABASE_POOL_MAX,
      connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    },
    processRole: e.PROCESS_ROLE,
    workerHealthPort: e.WORKER_HEALTH_PORT,
    jobLeaseSeconds: e.JOB_LEASE_SECONDS,
    jobBatchSize: e.JOB_BATCH_SIZE,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    masterKey: e.MASTER_KEY ? Buffer.from(e.MASTER_KEY, 'base64') : undefined,
    accountCenter: { enabled: accountCenterEnabled, port: e.ID_PORT, publicUrl: idPublicUrl },
    oidc: {
      issuer: e.OIDC_ISSUER ?? idPublicUrl,
      clientId: e.OIDC_CLIENT_ID,
      clientSecret: e.OIDC_CLIENT_SECRET,
      scopes: e.OIDC_SCOPES,
      redirectUrl: `${publicUrl}/oauth/socious`,
    },
    accountCenterUrl: e.ACCOUNT_CENTER_URL ?? (accountCenterEnabled ? idPublicUrl : undefined),
    wallet: {
      port: e.WALLET_PORT,
      publicUrl: e.WALLET_PUBLIC_URL ?? `http://localhost:${e.WALLET_PORT}`,
      dist: path.resolve(repoRoot, e.WALLET_DIST ?? 'apps/wallet/dist'),
    },
    consoleDist: path.resolve(repoRoot, e.CONSOLE_DIST ?? 'apps/console/dist'),
    tokens: { accessTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS, refreshTtlDays: e.REFRESH_TOKEN_TTL_DAYS },
    mail: {
      smtpUrl: e.SMTP_URL,
      catcherPort: e.SMTP_CATCHER_PORT,
      from: e.MAIL_FROM,
      // The development mailbox exists only with the in-process catcher, never in production.
      devMailbox: !e.SMTP_URL && !isProduction,
    },
    demo: {
      enabled: e.DEMO_SEED ?? (!isProduction && accountCenterEnabled),
      email: e.DEMO_EMAIL,
      password: e.DEMO_PASSWORD,
      organizationName: e.DEMO_ORGANIZATION_NAME,
    },
    credentialEngine: {
      caCertFile: e.PLATFORM_CA_CERT_FILE,
      caKeyFile: e.PLATFORM_CA_KEY_FILE,
      statusListSize: e.STATUS_LIST_SIZE,
      statusListTtlSeconds: e.STATUS_LIST_TTL_SECONDS,
      offerTtlDays: e.CREDENTIAL_OFFER_TTL_DAYS,
      verifierTrustAnchorsFile: e.VERIFIER_TRUST_ANCHORS_FILE,
    },
    // Blocked in production; the embedded/development/test default reaches loopback receivers.
    outbound: {
      allowPrivateNetworks: e.OUTBOUND_ALLOW_PRIVATE_NETWORKS ?? !isProduction,
      lookupsAtOnce: Math.max(1, Math.floor(e.UV_THREADPOOL_SIZE / 2)),
    },
    adminEmails: e.ADMIN_EMAILS,
    storage: {
      driver: e.STORAGE_DRIVER,
      localDir: path.join(dataDir, 'files'),
      s3: {
        endpoint: e.S3_ENDPOINT,
        region: e.S3_REGION,
        bucket: e.S3_BUCKET,
        accessKeyId: e.S3_ACCESS_KEY_ID,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY,
        forcePathStyle: e.S3_FORCE_PATH_STYLE ?? Boolean(e.S3_ENDPOINT),
      },
    },
    uploads: { maxBytes: e.UPLOAD_MAX_BYTES, maxFiles: e.UPLOAD_MAX_FILES },
    credentialImports: { maxBytes: e.CREDENTIAL_IMPORT_MAX_BYTES, maxRows: e.CREDENTIAL_IMPORT_MAX_ROWS },
    apiKeyRateLimitPerMinute: e.API_KEY_RATE_LIMIT_PER_MINUTE,
    errorWebhookUrl: e.ERROR_WEBHOOK_URL,
    trustProxy: e.TRUST_PROXY ?? false,
    bodyLimit: e.BODY_LIMIT_BYTES,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    redis: { url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX },
    rateLimits: {
      signIn: e.RATE_LIMIT_SIGN_IN_PER_MINUTE,
      issuer: e.RATE_LIMIT_ISSUER_PER_MINUTE,
      verifier: e.RATE_LIMIT_VERIFIER_PER_MINUTE,
      holder: e.RATE_LIMIT_HOLDER_PER_MINUTE,
    },
  };
}
