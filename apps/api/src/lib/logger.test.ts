import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

describe('logger', () => {
  it('redacts authorization headers, cookies and secrets', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    });
    const logger = createLogger({ level: 'info' }, sink);
    logger.info(
      {
        req: { headers: { authorization: 'Bearer eyJsecret', cookie: 'access_token=abc', 'x-admin-token': 'tok' } },
        body: { password: 'Hunter2!x', refresh_token: 'rt-123', client_secret: 'cs-456', name: 'kept' },
      },
      'request',
    );
    const output = lines.join('');
    for (const secret of ['eyJsecret', 'access_token=abc', 'tok"', 'Hunter2!x', 'rt-123', 'cs-456']) {
      expect(output).not.toContain(secret);
    }
    expect(output).toContain('[Redacted]');
    expect(output).toContain('kept');
  });
});
