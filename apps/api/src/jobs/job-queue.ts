import type { SqlExecutor } from '@cp/db';
import { type Job, type JobResult, PgBoss } from 'pg-boss';
import type { Logger } from '../lib/logger.ts';
import { moveV10Jobs, setAsideV10 } from './pgboss-v10.ts';

export type JobHandler<T> = (data: T) => Promise<void>;

export interface JobQueueOptions {
  /**
   * Whether this process runs the handlers (roles `all` and `worker`). An API process (`api`) only creates
   * the queues and sends jobs; it neither works them nor runs pg-boss maintenance and cron.
   */
  work?: boolean;
  /**
   * How long a running job holds without a sign of life before pg-boss takes it for dead and retries it
   * elsewhere (pg-boss's `heartbeatSeconds`, at least 10). The worker sends a heartbeat every third of it,
   * so only jobs of a process that died (SIGKILL, crash, lost machine) lose it; they run again about one
   * and a half leases later (the lease, then the next supervision pass).
   */
  leaseSeconds?: number;
  /** Graceful stop: how long running jobs may take to finish before they are released (retried elsewhere). */
  stopTimeoutMs?: number;
  /** Jobs of one queue fetched and run side by side (keep it below the database pool size). */
  batchSize?: number;
  /**
   * Runs queue creation one process at a time (a database advisory lock): pg-boss's queue creation
   * deadlocks when several processes create the same queues at the same moment.
   */
  exclusive?: <T>(fn: () => Promise<T>) => Promise<T>;
}

const DEFAULT_BATCH_SIZE = 10;
/**
 * The hard time limit of one job run (pg-boss's expiration, enforced in process as well): far above any real
 * job. Liveness is the lease's business, not this limit's.
 */
const JOB_TIME_LIMIT_SECONDS = 4 * 3600;

/** pg-boss's statements slower than this are logged as warnings. */
const SLOW_STATEMENT_SECONDS = 5;

/** pg-boss refuses a heartbeat under 10 seconds. */
export const MIN_LEASE_SECONDS = 10;

/**
 * Durable background jobs on pg-boss, over whichever database the API uses (PGlite through pg-boss's
 * `db.executeSql` option, PostgreSQL through the same executor). Jobs survive restarts and retry.
 * Only pg-boss's public API touches its tables (schema `pgboss`): `start()` creates them, or migrates
 * those of an older pg-boss.
 */
const SCHEMA = 'pgboss';

export class JobQueue {
  readonly #boss: PgBoss;
  readonly #db: SqlExecutor;
  readonly #logger: Logger;
  readonly #work: boolean;
  readonly #leaseSeconds: number;
  readonly #stopTimeoutMs: number;
  readonly #batchSize: number;
  readonly #exclusive: <T>(fn: () => Promise<T>) => Promise<T>;
  #started = false;
  /** pg-boss statements in flight and batches running: the database must stay open until both are 0. */
  #statements = 0;
  #batches = 0;

  constructor(executor: SqlExecutor, logger: Logger, options: JobQueueOptions = {}) {
    this.#logger = logger;
    this.#work = options.work ?? true;
    this.#leaseSeconds = options.leaseSeconds ?? 60;
    if (!Number.isInteger(this.#leaseSeconds) || this.#leaseSeconds < MIN_LEASE_SECONDS) {
      throw new Error(`The job lease must be a whole number of seconds, at least ${MIN_LEASE_SECONDS}.`);
    }
    this.#stopTimeoutMs = options.stopTimeoutMs ?? 5000;
    this.#batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    this.#exclusive = options.exclusive ?? ((fn) => fn());
    const tracked: SqlExecutor = {
      executeSql: async (text, values) => {
        this.#statements += 1;
        try {
          return await executor.executeSql(text, values);
        } finally {
          this.#statements -= 1;
        }
      },
    };
    // Jobs whose heartbeat stopped are found by supervision (one process at a time, whichever is due first).
    const supervisionSeconds = Math.max(1, Math.floor(this.#leaseSeconds / 2));
    this.#db = tracked;
    this.#boss = new PgBoss({
      db: tracked,
      schema: SCHEMA,
      supervise: this.#work,
      schedule: this.#work,
      superviseIntervalSeconds: supervisionSeconds,
      monitorIntervalSeconds: supervisionSeconds,
      // A statement of pg-boss's own that takes this long is logged (the warning above): on PGlite, one session,
      // every request waits behind it.
      warningSlowQuerySeconds: SLOW_STATEMENT_SECONDS,
    });
    this.#boss.on('error', (err: unknown) => this.#logger.error({ err }, 'job queue error'));
    // pg-boss's own warnings (a slow statement, a backlog, index bloat): what they say and the statement's text,
    // never its values (a job's data, such as a sealed one-time code).
    this.#boss.on(
      'warning',
      (warning: { message?: string; data?: { type?: string; elapsed?: number; sql?: string } }) =>
        this.#logger.warn(
          {
            type: warning.data?.type,
            elapsedSeconds: warning.data?.elapsed,
            statement: warning.data?.sql?.replace(/\s+/g, ' ').slice(0, 200),
          },
          `job queue warning: ${warning.message ?? ''}`,
        ),
    );
  }

  /** Whether this process runs job handlers. */
  get working() {
    return this.#work;
  }

  async start() {
    // A database that pg-boss 10 worked on: its schema is set aside, pg-boss installs a fresh one, and the
    // jobs still to run move across (see pgboss-v10.ts).
    await this.#exclusive(() => setAsideV10(this.#db, SCHEMA));
    await this.#boss.start();
    await this.#exclusive(() =>
      moveV10Jobs(this.#boss, this.#db, this.#logger, { heartbeatSeconds: this.#leaseSeconds }),
    );
    this.#started = true;
  }

  /**
   * Stops fetching jobs, lets running jobs finish for up to the stop timeout, then releases the ones still
   * running (pg-boss marks them failed, so they are retried by another process).
   */
  async stop() {
    if (!this.#started) return;
    this.#started = false;
    await this.#boss.stop({ graceful: true, timeout: this.#stopTimeoutMs, close: false });
    // A fetch may still be in flight (its jobs are handed back, see register): wait until nothing uses the
    // database any more (the caller closes it next).
    const deadline = Date.now() + 5000;
    let idleChecks = 0;
    while (idleChecks < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      idleChecks = this.#statements === 0 && this.#batches === 0 ? idleChecks + 1 : 0;
    }
  }

  async register<T extends object>(
    queue: string,
    handler: JobHandler<T>,
    options: { retryLimit?: number; batchSize?: number } = {},
  ) {
    const queueOptions = {
      retryLimit: options.retryLimit ?? 5,
      retryBackoff: true,
      expireInSeconds: JOB_TIME_LIMIT_SECONDS,
      // The lease: a job whose worker stops sending heartbeats is failed (and retried) by supervision.
      heartbeatSeconds: this.#leaseSeconds,
    };
    // Creating is a no-op for an existing queue; the update brings its settings (the lease) up to date.
    await this.#exclusive(() =>
      retryOnDeadlock(async () => {
        await this.#boss.createQueue(queue, queueOptions);
        await this.#boss.updateQueue(queue, queueOptions);
      }),
    );
    if (!this.#work) return;
    // Several jobs per fetch, run side by side, and the next fetch at once after a full batch (pg-boss
    // otherwise waits for the polling interval after every fetch, which caps a busy queue at one batch a
    // second). Each job of a batch is settled on its own: only the jobs that failed are retried.
    const batchSize = options.batchSize ?? this.#batchSize;
    await this.#boss.work<T>(
      queue,
      {
        pollingIntervalSeconds: 1,
        batchSize,
        burstWhenBatchFull: true,
        perJobResults: true,
        heartbeatRefreshSeconds: Math.max(1, Math.floor(this.#leaseSeconds / 3)),
      },
      async (jobs) => {
        // Fetched while stopping: fail them at once, so they go back to the queue for another worker.
        if (!this.#started) throw new Error('The worker is stopping; the job goes back to the queue.');
        this.#batches += 1;
        try {
          return await this.#runBatch(queue, jobs, handler);
        } finally {
          this.#batches -= 1;
        }
      },
    );
  }

  async #runBatch<T extends object>(queue: string, jobs: Job<T>[], handler: JobHandler<T>): Promise<JobResult[]> {
    return Promise.all(
      jobs.map(async (job): Promise<JobResult> => {
        try {
          await handler(job.data);
          return { id: job.id, status: 'completed' };
        } catch (err) {
          this.#logger.warn({ err, queue, jobId: job.id }, 'job failed; it will be retried');
          return {
            id: job.id,
            status: 'failed',
            output: { message: err instanceof Error ? err.message : String(err) },
          };
        }
      }),
    );
  }

  /** A recurring job (cron, UTC); pg-boss makes sure one process runs each occurrence. */
  async schedule(queue: string, cron: string) {
    await retryOnDeadlock(() => this.#boss.schedule(queue, cron, {}, { tz: 'UTC' }));
  }

  /** `startAfter` delays the job until that moment (a retry on its own schedule). */
  async send<T extends object>(queue: string, data: T, options: { singletonKey?: string; startAfter?: Date } = {}) {
    return retryOnDeadlock(() =>
      this.#boss.send(queue, data, {
        ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
        ...(options.startAfter ? { startAfter: options.startAfter } : {}),
      }),
    );
  }
}

/**
 * Creating a queue adds a partition to pg-boss's job table (DDL); when processes start together, that can
 * deadlock with another process sending a job. PostgreSQL aborts one side (40P01) and nothing was written,
 * so trying again is safe.
 */
async function retryOnDeadlock<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fn();
    } catch (err) {
      if ((err as { code?: unknown }).code !== '40P01' || attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
    }
  }
}
