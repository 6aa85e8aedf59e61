import { isProblemCode, type Problem, ProblemCode, problemStatus } from '@cp/contracts';
import { describe, expect, it } from 'vitest';
import { messages as enBase } from '../i18n/bundles/en.ts';
import { messages as enWorkspace } from '../i18n/bundles/en-workspace.ts';
import { messages as enWorkspacePages } from '../i18n/bundles/en-workspace-pages.ts';
import { messages as esBase } from '../i18n/bundles/es.ts';
import { messages as esWorkspace } from '../i18n/bundles/es-workspace.ts';
import { messages as esWorkspacePages } from '../i18n/bundles/es-workspace-pages.ts';
import { messages as jaBase } from '../i18n/bundles/ja.ts';
import { messages as jaWorkspace } from '../i18n/bundles/ja-workspace.ts';
import { messages as jaWorkspacePages } from '../i18n/bundles/ja-workspace-pages.ts';
import { messages as koBase } from '../i18n/bundles/ko.ts';
import { messages as koWorkspace } from '../i18n/bundles/ko-workspace.ts';
import { messages as koWorkspacePages } from '../i18n/bundles/ko-workspace-pages.ts';
import { type MessageTree, mergeMessages } from '../i18n/message-tree.ts';
import { createTranslator } from '../i18n/translator.ts';
import { ApiError } from './api-error.ts';
import { problemMessage, problemMessageKey, problemMessageKeys } from './problem-messages.ts';

const languages = {
  en: mergeMessages(enBase, { workspace: enWorkspace, workspacePages: enWorkspacePages }),
  ja: mergeMessages(jaBase, { workspace: jaWorkspace, workspacePages: jaWorkspacePages }),
  es: mergeMessages(esBase, { workspace: esWorkspace, workspacePages: esWorkspacePages }),
  ko: mergeMessages(koBase, { workspace: koWorkspace, workspacePages: koWorkspacePages }),
};

/** The message at a dotted key: the key itself, or its plural forms (`_other` is in every language). */
function lookup(tree: MessageTree, key: string): string | undefined {
  const parts = key.split('.');
  const last = parts.pop() ?? '';
  let node: MessageTree | string | undefined = tree;
  for (const part of parts) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'object') return undefined;
  const value = node[last] ?? node[`${last}_other`];
  return typeof value === 'string' ? value : undefined;
}

const problem = (code: string, status = 409): Problem => ({ type: 'about:blank', title: 'Conflict', status, code });

describe('problem messages', () => {
  it('explains only codes of the shared list', () => {
    for (const code of Object.keys(problemMessageKeys)) expect(isProblemCode(code), code).toBe(true);
  });

  it.each(Object.entries(languages))('has every explained code’s message in %s', (_, tree) => {
    const missing = Object.entries(problemMessageKeys).filter(([, key]) => !lookup(tree, key)?.trim());
    expect(missing).toEqual([]);
  });

  it('explains every database refusal and a rate limit in words of its own', () => {
    const database = Object.keys(problemStatus).filter((code) => code.startsWith('DATABASE_'));
    expect(database.length).toBeGreaterThan(0);
    for (const code of [...database, ProblemCode.RATE_LIMITED]) expect(Object.keys(problemMessageKeys)).toContain(code);
  });

  it('shows the code’s message when there is one, else the call’s catalogue message', () => {
    const t = createTranslator({ language: 'es', fallbackLanguage: 'en' });
    t.addResourceBundle('es', languages.es);
    const translate = (key: string, values?: Record<string, unknown>) => t.t(key, values);
    const duplicate = new ApiError(409, problem(ProblemCode.DATABASE_UNIQUE_VIOLATION));
    expect(problemMessageKey(duplicate)).toBe(problemMessageKeys.DATABASE_UNIQUE_VIOLATION);
    expect(problemMessage(translate, duplicate, 'catalogue.createSchema')).toBe(
      lookup(languages.es, problemMessageKeys.DATABASE_UNIQUE_VIOLATION),
    );
    const unexplained = new ApiError(404, problem(ProblemCode.CREDENTIAL_NOT_FOUND, 404));
    expect(problemMessage(translate, unexplained, 'catalogue.createSchema')).toBe(
      lookup(languages.es, 'catalogue.createSchema'),
    );
    // A code this console does not know (a newer API) is no code at all.
    expect(new ApiError(409, problem('SOMETHING_NEW')).code).toBeNull();
    expect(problemMessageKey(new Error('network'))).toBeUndefined();
  });
});

describe('error codes in the console', () => {
  // The console's own sources as text (Vite's glob import: the test runs in jsdom, without file URLs).
  const sources = Object.entries(
    import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], {
      query: '?raw',
      import: 'default',
      eager: true,
    }),
  );
  /** A code compared as a string: `.is('X')`, `code === 'X'`, `code?.endsWith('X')`… */
  const STRING_COMPARISON =
    /(?:\.is\(\s*'[A-Z_]+'|code\)?\s*[!=]==?\s*'[A-Z][A-Z0-9_]+'|'[A-Z][A-Z0-9_]+'\s*[!=]==?\s*[\w.?]*code\b|code\??\.(?:endsWith|startsWith|includes)\()/;

  it('compares error codes against the shared constants, never strings', () => {
    expect(STRING_COMPARISON.test(`if (error.problem?.code === 'WEBHOOK_DISABLED')`)).toBe(true);
    expect(STRING_COMPARISON.test(`error.is('TRUST_ANCHOR_DUPLICATE')`)).toBe(true);
    expect(STRING_COMPARISON.test(`error.is(ProblemCode.TRUST_ANCHOR_DUPLICATE)`)).toBe(false);
    expect(sources.length).toBeGreaterThan(100);
    const offending = sources.flatMap(([file, text]) =>
      text
        .split('\n')
        .map((line, index) => ({ line, at: `${file}:${index + 1}` }))
        .filter(({ line }) => STRING_COMPARISON.test(line))
        .map(({ at, line }) => `${at} ${line.trim()}`),
    );
    expect(offending).toEqual([]);
  });
});
