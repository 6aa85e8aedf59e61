import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.ts';

describe('loadConfig', () => {
  it('starts on embedded defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.accountCenter).toMatchObject({ enabled: true, port: 3001, publicUrl: 'http://localhost:3001' });
    expect(config.wallet.publicUrl).toBe('http://localhost:3002');
    expect(config.database.url).toBeUndefined();
    expect(config.mail.devMailbox).toBe(true);
    expect(config.demo.enabled).toBe(true);
  });

  it('names every bad variable', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('DATABASE_URL');
      expect(message).toContain('LOG_LEVEL');
    }
  });

  it('requires a master key and no development mailbox in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/MASTER_KEY/);
    const config = loadConfig({ NODE_ENV: 'production', MASTER_KEY: Buffer.alloc(32).toString('base64') });
    expect(config.mail.devMailbox).toBe(false);
    expect(config.demo.enabled).toBe(false);
  });

  it('uses an external provider when configured', () => {
    expect(() => loadConfig({ ACCOUNT_CENTER_ENABLED: 'false' })).toThrow(/OIDC_ISSUER/);
    const config = loadConfig({ OIDC_ISSUER: 'https://login.example.com/', OIDC_CLIENT_SECRET: 'x'.repeat(20) });
    expect(config.accountCenter.enabled).toBe(false);
    expect(config.oidc.issuer).toBe('https://login.example.com');
    expect(config.accountCenterUrl).toBeUndefined();
  });

  it('counts rate limits in memory unless REDIS_URL names a Redis', () => {
    expect(loadConfig({}).redis).toEqual({ url: undefined, keyPrefix: 'cp:' });
    expect(loadConfig({ REDIS_URL: 'rediss://:pw@cache.internal:6380/2', REDIS_KEY_PREFIX: 'prod:' }).redis).toEqual({
      url: 'rediss://:pw@cache.internal:6380/2',
      keyPrefix: 'prod:',
    });
    expect(() => loadConfig({ REDIS_URL: 'http://cache.internal' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ REDIS_KEY_PREFIX: 'a b*' })).toThrow(/REDIS_KEY_PREFIX/);
  });
});
