import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestApp } from '../harness.ts';
import { freePorts, isAddressInUse } from './ports.ts';

// The next ports drawn for a server can be made to include one some other process already listens on, as happens
// when that process takes it between the check and the listen.
const trap = vi.hoisted(() => ({ port: undefined as number | undefined, calls: 0 }));
vi.mock('./ports.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./ports.ts')>();
  const draw = async (n: number) => {
    trap.calls += 1;
    const ports = await actual.freePorts(n);
    if (trap.port === undefined) return ports;
    const taken = trap.port;
    trap.port = undefined;
    return [taken, ...ports.slice(1)];
  };
  return {
    ...actual,
    onFreePorts: <T>(n: number, start: (ports: number[]) => Promise<T>) => actual.onPortsFrom(draw, n, start),
  };
});

const servers: Server[] = [];

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      servers.push(server);
      resolve(server);
    });
  });
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('free ports for test servers', () => {
  it('hands out distinct ports below the range outgoing connections draw from, each free to listen on', async () => {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const ports = await freePorts(8);
    expect(new Set(ports).size).toBe(8);
    for (const port of ports) expect(port).toBeLessThan(Number(low));
    await Promise.all(ports.map(listen));
  });

  it('tells a taken port from other failures', async () => {
    const [port] = await freePorts(1);
    await listen(port as number);
    const taken = await listen(port as number).catch((err: unknown) => err);
    expect(isAddressInUse(taken)).toBe(true);
    expect(isAddressInUse(new Error('connect ECONNREFUSED 127.0.0.1:5432'))).toBe(false);
  });

  it('a test app whose port was taken before it listened starts again on other ports', async () => {
    const [port] = await freePorts(1);
    await listen(port as number);
    trap.port = port;
    trap.calls = 0;
    const t = await startTestApp();
    try {
      expect(trap.calls).toBe(2);
      const discovery = await fetch(`${t.config.accountCenter.publicUrl}/.well-known/openid-configuration`);
      expect(discovery.status).toBe(200);
      expect(t.config.accountCenter.publicUrl).not.toContain(`:${port}`);
    } finally {
      await t.close();
    }
  });
});
