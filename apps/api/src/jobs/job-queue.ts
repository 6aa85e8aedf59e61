import type { SqlExecutor } from '@cp/db';
import PgBoss from 'pg-boss';
import type { Logger } from '../lib/logger.ts';

export type JobHandler<T> = (data: T) => Promise<void>;

export interface JobQueueOptions {
  /**
   * Whether this process runs the handlers (roles `all` and `worker`). An API process (`api`) only creates
   * the queues and sends jobs; it neither works them nor runs pg-boss maintenance and cron.
   */
  work?: boolean;
  /**
   * How long a running job holds before pg-boss takes it for dead and retries it elsewhere. A running job
   * renews its lease every third of it (a heartbeat), so only jobs of a process that died (SIGKILL, crash,
   * lost machine) expire; they run again about one lease later.
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

/**
 * Durable background jobs on pg-boss, over whichever database the API uses (PGlite through pg-boss's
 * `db.executeSql` option, PostgreSQL through the same executor). Jobs survive restarts and retry.
 */
export class JobQueue {
  readonly #boss: PgBoss;
  readonly #executor: SqlExecutor;
  readonly #logger: Logger;
  readonly #work: boolean;
  readonly #leaseSeconds: number;
  readonly #stopTimeoutMs: number;
  readonly #batchSize: number;
  readonly #exclusive: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Jobs running in this process, by queue: the heartbeat renews their lease. */
  readonly #running = new Map<string, Set<string>>();
  #heartbeat: NodeJS.Timeout | undefined;
  #started = false;
  /** pg-boss statements in flight and batches running: the database must stay open until both are 0. */
  #statements = 0;
  #batches = 0;

  constructor(executor: SqlExecutor, logger: Logger, options: JobQueueOptions = {}) {
    this.#executor = executor;
    this.#logger = logger;
    this.#work = options.work ?? true;
    this.#leaseSeconds = options.leaseSeconds ?? 60;
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
    this.#boss = new PgBoss({
      db: tracked,
      schema: 'pgboss',
      // Expired leases are found by maintenance (one process at a time, whichever is due first).
      supervise: this.#work,
      schedule: this.#work,
      maintenanceIntervalSeconds: Math.max(1, Math.floor(this.#leaseSeconds / 2)),
    });
    this.#boss.on('error', (err: unknown) => this.#logger.error({ err }, 'job queue error'));
  }

  /** Whether this process runs job handlers. */
  get working() {
    return this.#work;
  }

  async start() {
    await this.#boss.start();
    this.#started = true;
    if (this.#work) {
      const every = Math.max(1000, Math.floor((this.#leaseSeconds * 1000) / 3));
      this.#heartbeat = setInterval(() => void this.#renewLeases(), every);
      this.#heartbeat.unref();
    }
  }

  /**
   * Stops fetching jobs, lets running jobs finish for up to the stop timeout, then releases the ones still
   * running (pg-boss marks them failed, so they are retried by another process).
   */
  async stop() {
    if (!this.#started) return;
    this.#started = false;
    try {
      await this.#boss.stop({ graceful: true, timeout: this.#stopTimeoutMs, close: false });
      // A fetch may still be in flight (its jobs are handed back, see register), and pg-boss completes or
      // fails jobs without awaiting: wait until nothing uses the database any more (the caller closes it next).
      const deadline = Date.now() + 5000;
      let idleChecks = 0;
      while (idleChecks < 3 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        idleChecks = this.#statements === 0 && this.#batches === 0 ? idleChecks + 1 : 0;
      }
    } finally {
      clearInterval(this.#heartbeat);
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
    };
    // Creating is a no-op for an existing queue; the update brings its settings (the lease) up to date.
    await this.#exclusive(() =>
      retryOnDeadlock(async () => {
        await this.#boss.createQueue(queue, { name: queue, ...queueOptions });
        await this.#boss.updateQueue(queue, { name: queue, ...queueOptions });
      }),
    );
    if (!this.#work) return;
    // Several jobs per fetch, run side by side, and the next fetch at once after a full batch: pg-boss
    // otherwise waits for the polling interval after every fetch, which caps a busy queue at one batch a second.
    const batchSize = options.batchSize ?? this.#batchSize;
    const workerId: string = await this.#boss.work<T>(queue, { pollingIntervalSeconds: 1, batchSize }, async (jobs) => {
      // Fetched while stopping: fail them at once, so they go back to the queue for another worker.
      if (!this.#started) throw new Error('The worker is stopping; the job goes back to the queue.');
      this.#batches += 1;
      try {
        await this.#runBatch(queue, jobs, handler);
      } finally {
        this.#batches -= 1;
      }
      if (jobs.length >= batchSize && this.#started) this.#boss.notifyWorker(workerId);
    });
  }

  async #runBatch<T extends object>(queue: string, jobs: PgBoss.Job<T>[], handler: JobHandler<T>) {
    const running = this.#running.get(queue) ?? new Set<string>();
    this.#running.set(queue, running);
    for (const job of jobs) running.add(job.id);
    await this.#renew(
      queue,
      jobs.map((job) => job.id),
    );
    await Promise.all(
      jobs.map(async (job) => {
        try {
          await handler(job.data);
        } catch (err) {
          this.#logger.warn({ err, queue, jobId: job.id }, 'job failed; it will be retried');
          // Only this job fails (and retries); the others of the batch complete.
          await this.#boss
            .fail(queue, job.id, { message: err instanceof Error ? err.message : String(err) })
            .catch((failErr: unknown) => this.#logger.error({ err: failErr, queue }, 'job not marked failed'));
        } finally {
          running.delete(job.id);
        }
      }),
    );
  }

  async #renewLeases() {
    for (const [queue, ids] of this.#running) {
      if (ids.size > 0) await this.#renew(queue, [...ids]);
    }
  }

  /**
   * Renews the lease of running jobs: pg-boss expires an active job at `started_on + expire_in`, so sliding
   * `started_on` puts that moment one lease ahead while `expire_in` (the hard limit pg-boss also applies in
   * process) stays as it is. A job whose process died stops being renewed and expires a lease later.
   */
  async #renew(queue: string, ids: string[]) {
    try {
      await this.#executor.executeSql(
        `update pgboss.job set started_on = now() + make_interval(secs => $3) - expire_in
         where name = $1 and id = any($2::uuid[]) and state = 'active'`,
        [queue, ids, this.#leaseSeconds],
      );
    } catch (err) {
      this.#logger.warn({ err, queue }, 'job lease not renewed');
    }
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
