import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, redactUrl } from './logger.ts';

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

  it('redacts the token of invitation links in request URLs, not other ids', () => {
    const token = 'Ab_-0123456789abcdefghijklmnopqrstuvwxyzABC';
    expect(redactUrl(`/api/invitations/${token}`)).toBe('/api/invitations/[Redacted]');
    expect(redactUrl(`/api/invitations/${token}/accept?t=1`)).toBe('/api/invitations/[Redacted]/accept?t=1');
    expect(redactUrl(`/invitations/${token}`)).toBe('/invitations/[Redacted]');
    const id = '0b8d6c7e-9f3a-4c1b-8e2d-5a6f7b8c9d0e';
    expect(redactUrl(`/api/organizations/${id}/invitations/${id}`)).toBe(`/api/organizations/${id}/invitations/${id}`);
  });
});
