import type { SqlExecutor } from '@cp/db';
import PgBoss from 'pg-boss';
import type { Logger } from '../lib/logger.ts';

export type JobHandler<T> = (data: T) => Promise<void>;

/**
 * Durable background jobs on pg-boss, over whichever database the API uses (PGlite through pg-boss's
 * `db.executeSql` option, PostgreSQL through the same executor). Jobs survive restarts and retry.
 */
export class JobQueue {
  readonly #boss: PgBoss;
  readonly #logger: Logger;
  #started = false;

  constructor(executor: SqlExecutor, logger: Logger) {
    this.#logger = logger;
    this.#boss = new PgBoss({
      db: executor,
      schema: 'pgboss',
      // Embedded mode is one process; maintenance every few minutes is plenty.
      maintenanceIntervalSeconds: 300,
    });
    this.#boss.on('error', (err: unknown) => this.#logger.error({ err }, 'job queue error'));
  }

  async start() {
    await this.#boss.start();
    this.#started = true;
  }

  async stop() {
    if (!this.#started) return;
    this.#started = false;
    await this.#boss.stop({ graceful: true, timeout: 5000 });
  }

  async register<T extends object>(queue: string, handler: JobHandler<T>, options: { retryLimit?: number } = {}) {
    await this.#boss.createQueue(queue, { name: queue, retryLimit: options.retryLimit ?? 5, retryBackoff: true });
    await this.#boss.work<T>(queue, { pollingIntervalSeconds: 1 }, async (jobs) => {
      for (const job of jobs) {
        try {
          await handler(job.data);
        } catch (err) {
          this.#logger.warn({ err, queue, jobId: job.id }, 'job failed; it will be retried');
          throw err;
        }
      }
    });
  }

  /** A recurring job (cron, UTC); pg-boss makes sure one process runs each occurrence. */
  async schedule(queue: string, cron: string) {
    await this.#boss.schedule(queue, cron, {}, { tz: 'UTC' });
  }

  /** `startAfter` delays the job until that moment (a retry on its own schedule). */
  async send<T extends object>(queue: string, data: T, options: { singletonKey?: string; startAfter?: Date } = {}) {
    return this.#boss.send(queue, data, {
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.startAfter ? { startAfter: options.startAfter } : {}),
    });
  }
}
