import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';

/**
 * Free ports for servers a test starts a moment later (a URL must be known before its server listens).
 *
 * A port asked of the kernel with `listen(0)` comes from the ephemeral range, the same range every outgoing
 * connection on the machine draws its local port from. Between the check and the real `listen`, a test file
 * in another worker opening a connection to PostgreSQL can take that port, and the server then stops with
 * EADDRINUSE (it did, in CI). So ports are drawn at random below the ephemeral range, where only listening
 * servers live, and each is checked free by binding it. Two test processes can still draw the same port
 * (a small chance): callers that start servers retry on `isAddressInUse`.
 */

const LOWEST = 10_000;

function ephemeralRangeStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const start = Number(low);
    return Number.isInteger(start) && start > LOWEST + 1000 ? start : 32_768;
  } catch {
    return 32_768;
  }
}

const below = ephemeralRangeStart();

function bind(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

function portOf(server: Server): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

async function holdFreePort(taken: Set<number>): Promise<Server> {
  for (let attempt = 0; attempt < 64; attempt += 1) {
    const port = LOWEST + Math.floor(Math.random() * (below - LOWEST));
    if (taken.has(port)) continue;
    const server = await bind(port);
    if (server) return server;
  }
  const server = await bind(0);
  if (!server) throw new Error('no free port on 127.0.0.1');
  return server;
}

/** `n` distinct ports that are free now: each is held until all are known, so none is handed out twice. */
export async function freePorts(n: number): Promise<number[]> {
  const held: Server[] = [];
  const taken = new Set<number>();
  try {
    for (let i = 0; i < n; i += 1) {
      const server = await holdFreePort(taken);
      held.push(server);
      taken.add(portOf(server));
    }
    return held.map(portOf);
  } finally {
    await Promise.all(held.map(close));
  }
}

export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port as number;
}

/** True for the error a server gives when another process took its port first. */
export function isAddressInUse(err: unknown): boolean {
  return (
    (err as { code?: unknown } | null)?.code === 'EADDRINUSE' || String((err as Error)?.message).includes('EADDRINUSE')
  );
}

/**
 * Runs `start` on `n` ports free a moment ago, and again on new ones (at most three times) when a server found
 * its port taken in between. `start` cleans up after itself when it fails.
 */
export function onFreePorts<T>(n: number, start: (ports: number[]) => Promise<T>): Promise<T> {
  return onPortsFrom(freePorts, n, start);
}

/** onFreePorts with the ports drawn by `draw` (a test hands out a taken one). */
export async function onPortsFrom<T>(
  draw: (n: number) => Promise<number[]>,
  n: number,
  start: (ports: number[]) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start(await draw(n));
    } catch (err) {
      if (attempt === 3 || !isAddressInUse(err)) throw err;
    }
  }
}
