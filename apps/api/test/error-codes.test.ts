import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isOAuthErrorCode, isProblemCode, oauthErrorCodes, problemStatus } from '@cp/contracts';
import { describe, expect, it } from 'vitest';

/**
 * Every error code the API can answer is in the shared list of `@cp/contracts`. `AppError` and `problemBody`
 * take only listed codes (the type checker refuses others); this test also reads the sources, so a code
 * written where no type guards it (a hand-built body, a cast) cannot slip past.
 */
const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Where a problem+json code is written, and where an OAuth-style `error` is. */
const PROBLEM_CODE_SITES = [
  /\bAppError\(\s*'([^']*)'/g,
  /\bproblemBody\(\s*'([^']*)'/g,
  /\bsend\(\s*\d{3},\s*'([^']*)'/g,
  /\bready: false,\s*code: '([^']*)'/g,
  /\bstatus: \d{3}, code: '([^']*)'/g,
];
const OAUTH_CODE_SITES = [
  /\bOAuthError\(\s*'([^']*)'/g,
  /\bVerifierError\(\s*'([^']*)'/g,
  /\.send\(\{\s*error: '([^']*)'/g,
  /\bBearer error="([^"$]*)"/g,
];

function codesWritten(source: string) {
  const collect = (patterns: RegExp[]) =>
    patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1] ?? ''));
  return { problem: collect(PROBLEM_CODE_SITES), oauth: collect(OAUTH_CODE_SITES) };
}

const written = sourceFiles(SRC).map((file) => ({
  file: path.relative(SRC, file),
  ...codesWritten(readFileSync(file, 'utf8')),
}));

describe('error codes', () => {
  it('finds the codes where the API writes them', () => {
    // A scanner that matched nothing would pass whatever the sources say.
    expect(written.flatMap((w) => w.problem).length).toBeGreaterThan(100);
    expect(written.flatMap((w) => w.oauth).length).toBeGreaterThan(30);
    expect(codesWritten(`throw new AppError('NOT_A_LISTED_CODE');`).problem).toEqual(['NOT_A_LISTED_CODE']);
    expect(codesWritten(`reply.send({ error: 'made_up' })`).oauth).toEqual(['made_up']);
  });

  it('lists every problem+json code the API writes', () => {
    const unlisted = written.flatMap(({ file, problem }) =>
      problem.filter((c) => !isProblemCode(c)).map((c) => `${file}: ${c}`),
    );
    expect(unlisted).toEqual([]);
  });

  it('lists every OAuth-style error the protocol endpoints write', () => {
    const unlisted = written.flatMap(({ file, oauth }) =>
      oauth.filter((c) => !isOAuthErrorCode(c)).map((c) => `${file}: ${c}`),
    );
    expect(unlisted).toEqual([]);
  });

  it('gives each problem code an error status and an UPPER_SNAKE name', () => {
    for (const [code, status] of Object.entries(problemStatus)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/);
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
    }
    for (const code of oauthErrorCodes) expect(code).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
  });
});
