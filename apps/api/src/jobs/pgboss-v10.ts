import type { SqlExecutor } from '@cp/db';
import type { JobInsert, PgBoss } from 'pg-boss';
import type { Logger } from '../lib/logger.ts';

/**
 * The upgrade of a database that pg-boss 10 worked on (schema version 24). pg-boss 11 rewrote its storage
 * and ships no migration from 24: later releases refuse to start on it ("the oldest supported starting
 * version is 25"). pg-boss's own advice is to install the new version next to the old one and move the
 * jobs still to run across; this does that, once, before and after `start()`:
 *
 * 1. `setAsideV10` renames the old schema (`pgboss` → `pgboss_v10`) so pg-boss installs a fresh one.
 * 2. `moveV10Jobs` reads the jobs that were still to run (created, retry, or active in a process that
 *    is gone) from the old schema, inserts them into the new one through pg-boss's `insert()` (same ids,
 *    due time, payload and remaining retries), then drops the old schema.
 *
 * Both run under the job queues' advisory lock (one process at a time). A crash between the inserts and
 * the drop is harmless: the next start inserts again and pg-boss skips the ids it already holds. Processes
 * of the old version must be stopped first, as for any pg-boss major upgrade.
 */
export const V10_SCHEMA = 'pgboss_v10';
const V10_VERSION = 24;
const BATCH = 500;
/** pg-boss's limit for `expireInSeconds`. */
const MAX_EXPIRE_SECONDS = 24 * 3600;
const POLICIES = new Set(['standard', 'short', 'singleton', 'stately']);

async function schemaVersion(db: SqlExecutor, schema: string): Promise<number | undefined> {
  const { rows } = await db.executeSql('select to_regclass($1) is not null as present', [`${schema}.version`]);
  if (!rows[0]?.present) return undefined;
  const version = await db.executeSql(`select max(version) as version from ${schema}.version`);
  return version.rows[0]?.version == null ? undefined : Number(version.rows[0].version);
}

/** Renames a pg-boss 10 schema out of the way; answers whether there was one. */
export async function setAsideV10(db: SqlExecutor, schema: string): Promise<boolean> {
  const version = await schemaVersion(db, schema);
  if (version === undefined || version > V10_VERSION) return false;
  if (version < V10_VERSION) {
    throw new Error(
      `The job tables (schema ${schema}) are from pg-boss older than 10 (schema version ${version}): ` +
        'start the previous release of this product once to bring them to pg-boss 10 first.',
    );
  }
  await db.executeSql(`alter schema ${schema} rename to ${V10_SCHEMA}`);
  return true;
}

interface V10Job {
  id: string;
  data: object | null;
  priority: number;
  state: string;
  retry_limit: number;
  retry_count: number;
  retry_delay: number;
  retry_backoff: boolean;
  start_after: Date | string;
  singleton_key: string | null;
  expire_seconds: number;
}

/**
 * Moves the jobs still to run from a set-aside pg-boss 10 schema into the running pg-boss, then drops the
 * old schema. Answers how many jobs were moved (0 when there is no old schema).
 */
export async function moveV10Jobs(
  boss: PgBoss,
  db: SqlExecutor,
  logger: Logger,
  defaults: { heartbeatSeconds: number },
): Promise<number> {
  const { rows } = await db.executeSql('select to_regnamespace($1) is not null as present', [V10_SCHEMA]);
  if (!rows[0]?.present) return 0;
  const { rows: queues } = await db.executeSql(
    `select name, policy from ${V10_SCHEMA}.queue where name not like '\\_\\_pgboss\\_\\_%' order by name`,
  );
  let moved = 0;
  for (const queue of queues as { name: string; policy: string | null }[]) {
    const { rows: jobs } = await db.executeSql(
      `select id, data, priority, state::text as state, retry_limit, retry_count, retry_delay, retry_backoff,
              start_after, singleton_key, extract(epoch from expire_in)::int as expire_seconds
         from ${V10_SCHEMA}.job where name = $1 and state in ('created', 'retry', 'active') order by created_on`,
      [queue.name],
    );
    if (jobs.length === 0) continue;
    if (!(await boss.getQueue(queue.name))) {
      // The process's own register() brings the settings up to date; the policy cannot change later.
      const policy = queue.policy && POLICIES.has(queue.policy) ? queue.policy : 'standard';
      await boss.createQueue(queue.name, { policy });
    }
    const inserts = (jobs as unknown as V10Job[]).map(
      (job): JobInsert => ({
        id: job.id,
        data: job.data ?? {},
        priority: job.priority,
        // The retries it had left; a job that was running (its process gone) runs again at once.
        retryLimit: Math.max(0, job.retry_limit - job.retry_count),
        retryDelay: job.retry_delay,
        retryBackoff: job.retry_backoff,
        ...(job.state === 'active' ? {} : { startAfter: new Date(job.start_after) }),
        ...(job.singleton_key ? { singletonKey: job.singleton_key } : {}),
        expireInSeconds: Math.min(MAX_EXPIRE_SECONDS, Math.max(1, job.expire_seconds)),
        heartbeatSeconds: defaults.heartbeatSeconds,
      }),
    );
    for (let i = 0; i < inserts.length; i += BATCH) await boss.insert(queue.name, inserts.slice(i, i + BATCH));
    moved += inserts.length;
  }
  await db.executeSql(`drop schema ${V10_SCHEMA} cascade`);
  logger.info({ moved }, 'job tables upgraded from pg-boss 10: pending jobs moved, old schema dropped');
  return moved;
}
