import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, redactLine, redactUrl } from './logger.ts';

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

  it('redacts secrets at any depth, in arrays and whatever the case of the key', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info' }, { write: (chunk: string) => void lines.push(chunk) });
    logger.warn(
      {
        job: { data: { offer: { token: 'deep-token-1' }, codes: [{ code: 'pre-auth-2' }, { kept: 'fine' }] } },
        headers: { Authorization: 'Bearer top-level-3', 'Set-Cookie': ['sid=4'] },
        password: 'top-5',
        err: { message: 'failed', cause: { access_token: 'cause-6' } },
      },
      'deep',
    );
    const output = lines.join('');
    for (const secret of ['deep-token-1', 'pre-auth-2', 'top-level-3', 'sid=4', 'top-5', 'cause-6']) {
      expect(output).not.toContain(secret);
    }
    const line = JSON.parse(output);
    expect(line.job.data.codes[1]).toEqual({ kept: 'fine' });
    expect(line.headers.Authorization).toBe('[Redacted]');
    expect(line.msg).toBe('deep');
  });

  it('writes a line without secret keys as it is, and withholds one it cannot parse', () => {
    const plain = '{"level":30,"time":1,"reqId":"req-1","req":{"method":"POST","url":"/x"},"msg":"incoming request"}\n';
    expect(redactLine(plain)).toBe(plain);
    // A secret's name inside a text value is not a key: the line is parsed, and comes out the same.
    const quoted = '{"level":30,"msg":"the \\"token\\": field is required"}\n';
    expect(JSON.parse(redactLine(quoted))).toEqual(JSON.parse(quoted));
    const broken = '{"level":30,"token":"abc"';
    const withheld = redactLine(broken);
    expect(withheld).not.toContain('abc');
    expect(JSON.parse(withheld).msg).toMatch(/withheld/);
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
