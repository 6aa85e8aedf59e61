/**
 * How busy a server's event loop was over a phase (`performance.eventLoopUtilization()`, measured inside the
 * server process and sent to the benchmark over IPC). A Node server's JavaScript runs on one thread: when its
 * event loop is near 100 % busy, that thread bounds the rate, whatever the cores have left (the thread pool's
 * cryptography and the garbage collector's helpers run beside it and count in the process's CPU, not here).
 */
import type { ChildProcess } from 'node:child_process';
import { type EventLoopUtilization, performance } from 'node:perf_hooks';

export interface EventLoopUse {
  /** Share of the phase's wall time the event loop was running JavaScript or native callbacks (0-1). */
  utilization: number;
  /** The event loop's busy time over the phase, in milliseconds. */
  activeMs: number;
}

/** In the server process: answer 'event-loop-start' and 'event-loop-stop' (with the phase's figures). */
export function answerEventLoopQuestions() {
  let start: EventLoopUtilization | undefined;
  process.on('message', (message: { type?: string }) => {
    if (message?.type === 'event-loop-start') {
      start = performance.eventLoopUtilization();
      process.send?.({ type: 'event-loop-started' });
    } else if (message?.type === 'event-loop-stop' && start) {
      const { utilization, active } = performance.eventLoopUtilization(start);
      start = undefined;
      process.send?.({ type: 'event-loop-stopped', use: { utilization, activeMs: active } });
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

/** "the API's event loop: busy 95 % of the phase, 1.36 ms per response; one event loop fills at ≈ 735/s". */
export function eventLoopLine(label: string, use: EventLoopUse, operations: number, operation: string) {
  const perOperation = use.activeMs / operations;
  const digits = perOperation < 1 ? 2 : perOperation < 10 ? 1 : 0;
  return (
    `${label}: busy ${(use.utilization * 100).toFixed(0)} % of the phase, ${perOperation.toFixed(digits)} ms per ${operation}; ` +
    `one event loop fills at ≈ ${Math.round(1000 / perOperation).toLocaleString('en')}/s`
  );
}
