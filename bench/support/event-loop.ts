/**
 * How busy a server's event loop was over a phase (`performance.eventLoopUtilization()`, measured inside the
 * server process and sent to the benchmark over IPC). A Node server's JavaScript runs on one thread: when its
 * event loop is near 100 % busy, that thread bounds the rate, whatever the cores have left (the thread pool's
 * cryptography and the garbage collector's helpers run beside it and count in the process's CPU, not here).
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type EventLoopUtilization, performance } from 'node:perf_hooks';

export interface EventLoopUse {
  /** Share of the phase's wall time the event loop was running JavaScript or native callbacks (0-1). */
  utilization: number;
  /** The event loop's busy time over the phase, in milliseconds. */
  activeMs: number;
  /**
   * The main thread's time on a CPU and waiting in the run queue for one (Linux's /proc/self/schedstat), in
   * milliseconds; absent where it cannot be read. Busy time includes the waits: a thread preempted in the
   * middle of a callback (say by the PostgreSQL backend its write has just woken) is still "busy".
   */
  thread?: { runMs: number; waitMs: number; wallMs: number };
}

/** The main thread's time on a CPU and waiting for one so far, in nanoseconds (undefined off Linux). */
function schedstat(): [number, number] | undefined {
  try {
    const [run, wait] = readFileSync('/proc/self/schedstat', 'utf8').split(' ').map(Number);
    return Number.isFinite(run) && Number.isFinite(wait) ? [run as number, wait as number] : undefined;
  } catch {
    return undefined;
  }
}

/** In the server process: answer 'event-loop-start' and 'event-loop-stop' (with the phase's figures). */
export function answerEventLoopQuestions() {
  let start: EventLoopUtilization | undefined;
  let startSched: [number, number] | undefined;
  process.on('message', (message: { type?: string }) => {
    if (message?.type === 'event-loop-start') {
      start = performance.eventLoopUtilization();
      startSched = schedstat();
      process.send?.({ type: 'event-loop-started' });
    } else if (message?.type === 'event-loop-stop' && start) {
      const { utilization, active, idle } = performance.eventLoopUtilization(start);
      const endSched = schedstat();
      const thread =
        startSched && endSched
          ? {
              runMs: (endSched[0] - startSched[0]) / 1e6,
              waitMs: (endSched[1] - startSched[1]) / 1e6,
              wallMs: active + idle,
            }
          : undefined;
      start = undefined;
      process.send?.({ type: 'event-loop-stopped', use: { utilization, activeMs: active, thread } });
    }
  });
}

/** Sends `message` to a child process over IPC and waits for its message of type `answer`. */
export function ask<T>(
  child: ChildProcess,
  message: { type: string; [key: string]: unknown },
  answer: string,
): Promise<T> {
  return new Promise((resolve) => {
    const listener = (reply: { type: string } & T) => {
      if (reply.type !== answer) return;
      child.off('message', listener);
      resolve(reply);
    };
    child.on('message', listener);
    child.send(message);
  });
}

/** In the benchmark: runs `phase` and answers how busy the server's event loop was meanwhile. */
export async function measureEventLoop<T>(
  child: ChildProcess,
  phase: () => Promise<T>,
): Promise<{ result: T; eventLoop: EventLoopUse }> {
  await ask(child, { type: 'event-loop-start' }, 'event-loop-started');
  const result = await phase();
  const { use } = await ask<{ use: EventLoopUse }>(child, { type: 'event-loop-stop' }, 'event-loop-stopped');
  return { result, eventLoop: use };
}

const fixed = (value: number) => value.toFixed(value < 1 ? 2 : value < 10 ? 1 : 0);

/**
 * "the API's event loop: busy 95 % of the phase, 1.36 ms per response; one event loop fills at ≈ 735/s; its
 * thread ran 1.10 ms per response and waited 0.30 ms for a CPU (22 % of the phase)".
 */
export function eventLoopLine(label: string, use: EventLoopUse, operations: number, operation: string) {
  const perOperation = use.activeMs / operations;
  const thread = use.thread
    ? `; its thread ran ${fixed(use.thread.runMs / operations)} ms per ${operation} and waited ` +
      `${fixed(use.thread.waitMs / operations)} ms for a CPU (${((use.thread.waitMs / Math.max(use.thread.wallMs, 1)) * 100).toFixed(0)} % of the phase)`
    : '';
  return (
    `${label}: busy ${(use.utilization * 100).toFixed(0)} % of the phase, ${fixed(perOperation)} ms per ${operation}; ` +
    `one event loop fills at ≈ ${Math.round(1000 / perOperation).toLocaleString('en')}/s${thread}`
  );
}
