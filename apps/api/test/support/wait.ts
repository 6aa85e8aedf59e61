import type { TestApp } from '../harness.ts';

/**
 * Waits for an event instead of for a guessed time: polls `check` until it answers something other than
 * `undefined` or `false`, and fails with `what` once `timeoutMs` has passed (a deadline, not a sleep: a
 * fast machine goes on at once, a slow one gets the whole deadline).
 */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 20_000, intervalMs = 25 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() >= deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Jobs of `queue` that are waiting, due for a retry or running (pg-boss 10 states). */
export async function pendingJobs(t: TestApp, queue: string): Promise<number> {
  const { rows } = await t.runtime.ctx.database.executor.executeSql(
    `select count(*)::int as n from pgboss.job where name = $1 and state in ('created', 'retry', 'active')`,
    [queue],
  );
  return (rows[0] as { n: number } | undefined)?.n ?? 0;
}

/**
 * Resolves once every job of `queue` sent so far has finished (completed, failed or cancelled): whatever a
 * duplicate job would have done, it has done by then.
 */
export async function jobsSettled(t: TestApp, queue: string, options?: { timeoutMs?: number }): Promise<void> {
  await waitFor(`the jobs of ${queue} to finish`, async () => (await pendingJobs(t, queue)) === 0, options);
}
