import { describe, expect, it } from 'vitest';
import { messages as enBase } from './bundles/en.ts';
import { messages as enConnect } from './bundles/en-connect.ts';
import { messages as enWorkspace } from './bundles/en-workspace.ts';
import { messages as enWorkspacePages } from './bundles/en-workspace-pages.ts';
import { messages as esBase } from './bundles/es.ts';
import { messages as esConnect } from './bundles/es-connect.ts';
import { messages as esWorkspace } from './bundles/es-workspace.ts';
import { messages as esWorkspacePages } from './bundles/es-workspace-pages.ts';
import { messages as jaBase } from './bundles/ja.ts';
import { messages as jaConnect } from './bundles/ja-connect.ts';
import { messages as jaWorkspace } from './bundles/ja-workspace.ts';
import { messages as jaWorkspacePages } from './bundles/ja-workspace-pages.ts';
import { messages as koBase } from './bundles/ko.ts';
import { messages as koConnect } from './bundles/ko-connect.ts';
import { messages as koWorkspace } from './bundles/ko-workspace.ts';
import { messages as koWorkspacePages } from './bundles/ko-workspace-pages.ts';
import { mergeMessages } from './message-tree.ts';
import { createTranslator } from './translator.ts';

// A language's messages come in three chunks (shared, public holder pages, signed-in pages); together they are the whole language.
const en = mergeMessages(enBase, { connect: enConnect, workspace: enWorkspace, workspacePages: enWorkspacePages });
const es = mergeMessages(esBase, { connect: esConnect, workspace: esWorkspace, workspacePages: esWorkspacePages });
const ja = mergeMessages(jaBase, { connect: jaConnect, workspace: jaWorkspace, workspacePages: jaWorkspacePages });
const ko = mergeMessages(koBase, { connect: koConnect, workspace: koWorkspace, workspacePages: koWorkspacePages });

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else Object.assign(out, flatten(value, path));
  }
  return out;
}

/** Values that are the same in every language on purpose: each language's own name, and bare placeholders. */
const SAME_EVERYWHERE = new Set(['languages.en', 'languages.ja', 'languages.es', 'languages.ko']);

const base = flatten(en as Tree);
/** A value made only of placeholders and punctuation (e.g. `{{count}}/{{max}}`) may legitimately stay the same. */
const hasWords = (text: string) => /\p{L}/u.test(text.replace(/{{\s*\w+\s*}}/g, ''));
const placeholders = (text: string) => (text.match(/{{\s*\w+\s*}}|<\/?\w+>/g) ?? []).sort();

describe.each([
  ['ja', ja],
  ['es', es],
  ['ko', ko],
])('%s translation', (_, locale) => {
  const translated = flatten(locale as Tree);

  it('has every key of en and no extra key', () => {
    expect(Object.keys(translated).sort()).toEqual(Object.keys(base).sort());
  });

  it('translates every value (no English left)', () => {
    const untranslated = Object.keys(base).filter(
      (key) => !SAME_EVERYWHERE.has(key) && translated[key] === base[key] && hasWords(base[key] ?? ''),
    );
    expect(untranslated).toEqual([]);
  });

  it('keeps the interpolation placeholders and markup tags of en', () => {
    for (const [key, value] of Object.entries(base)) {
      expect(placeholders(translated[key] ?? ''), key).toEqual(placeholders(value));
    }
  });

  it('has no empty value', () => {
    expect(Object.entries(translated).filter(([, value]) => value.trim() === '')).toEqual([]);
  });
});

/**
 * A message shown with a count (`{{count}}`) must come as `_one` and `_other` (i18next's CLDR suffixes): English
 * and Spanish say "1 file" but "2 files". Japanese and Korean have one form, but the keys of every language are
 * those of English (above). A message of only placeholders and punctuation (`{{count}}/{{max}}`) has no word to
 * agree.
 */
describe.each([
  ['en', en],
  ['es', es],
])('plural forms in %s', (_, locale) => {
  const messages = flatten(locale as Tree);
  const pluralBase = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');

  it('has _one and _other forms for every message with a count', () => {
    const bare = Object.entries(messages)
      .filter(([key, value]) => /{{\s*count\s*}}/.test(value) && hasWords(value) && pluralBase(key) === key)
      .map(([key]) => key);
    expect(bare).toEqual([]);
  });

  it('has both forms of every plural message', () => {
    const bases = new Set(
      Object.keys(messages)
        .filter((key) => pluralBase(key) !== key)
        .map(pluralBase),
    );
    const incomplete = [...bases].filter(
      (base) => messages[`${base}_one`] === undefined || messages[`${base}_other`] === undefined,
    );
    expect(incomplete).toEqual([]);
  });

  it('uses the count (or the count formatted for the language, `{{total}}`) in the _other form', () => {
    const without = Object.keys(messages).filter(
      (key) => key.endsWith('_other') && !/{{\s*(count|total)\s*}}/.test(messages[key] ?? ''),
    );
    expect(without).toEqual([]);
  });
});

describe('counted messages read right', () => {
  const translator = createTranslator({ language: 'en', fallbackLanguage: 'en' });
  for (const [language, messages] of [
    ['en', en],
    ['es', es],
    ['ja', ja],
    ['ko', ko],
  ] as const) {
    translator.addResourceBundle(language, messages);
  }
  const say = (language: string, key: string, count: number) => translator.getFixedT(language)(key, { count });

  it('says one file, not "1 files", where only one file fits (logo, avatar)', () => {
    expect(say('en', 'organizations.logo.tooMany', 1)).toBe('You can upload only one file');
    expect(say('en', 'users.avatar.tooMany', 1)).toBe('You can upload only one file');
    expect(say('es', 'users.avatar.tooMany', 1)).toBe('Solo puedes subir un archivo');
    expect(say('en', 'kyb.upload.tooMany', 5)).toBe('You can upload up to 5 files');
    expect(say('es', 'kyb.upload.tooMany', 5)).toBe('Puedes subir hasta 5 archivos');
    expect(say('ja', 'kyb.upload.tooMany', 1)).toBe('アップロードできるのは1ファイルまでです');
  });

  it('agrees with the count in English and Spanish', () => {
    expect(say('en', 'common.maxLength', 1)).toBe('Use at most 1 character');
    expect(say('es', 'common.maxLength', 1)).toBe('Usa como máximo 1 carácter');
    expect(say('es', 'common.maxLength', 200)).toBe('Usa como máximo 200 caracteres');
    expect(say('en', 'integrations.webhooks.deliveries.attemptsValue', 1)).toBe('1 attempt');
    expect(say('es', 'integrations.webhooks.deliveries.attemptsValue', 3)).toBe('3 intentos');
    expect(say('ko', 'integrations.webhooks.deliveries.attemptsValue', 1)).toBe('1회 시도');
  });
});
