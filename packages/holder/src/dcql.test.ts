import { buildDcqlQuery, type DcqlQuery } from '@cp/credentials';
import { describe, expect, it } from 'vitest';
import { answersRequest, matchDcqlQuery, validateDcqlQuery } from './dcql.ts';

const VCT = 'https://issuer.example/vct/membership';
const ada = { vct: VCT, claims: { first_name: 'Ada', last_name: 'Lovelace', age: 36, email: 'ada@example.com' } };
const bob = { vct: VCT, claims: { first_name: 'Bob' } };
const other = { vct: 'https://issuer.example/vct/other', claims: { first_name: 'Eve', age: 1 } };

describe('matchDcqlQuery', () => {
  const query = buildDcqlQuery({ id: 'membership', vctValues: [VCT], claims: ['first_name', 'age'] });

  it('matches by vct and claims, disclosing exactly the claims asked for', () => {
    const matches = matchDcqlQuery(query, [ada, bob, other]);
    expect(matches.get('membership')).toEqual([
      { queryId: 'membership', credential: ada, disclose: ['first_name', 'age'], paths: [['first_name'], ['age']] },
    ]);
  });

  it('honours claim values', () => {
    const strict: DcqlQuery = {
      credentials: [{ id: 'q', format: 'dc+sd-jwt', claims: [{ path: ['first_name'], values: ['Bob'] }] }],
    };
    expect(matchDcqlQuery(strict, [ada]).get('q')).toEqual([]);
    expect(
      matchDcqlQuery(strict, [bob])
        .get('q')
        ?.map((m) => m.credential),
    ).toEqual([bob]);
  });

  it('claim_sets: the first set the credential satisfies decides what is disclosed', () => {
    const withSets: DcqlQuery = {
      credentials: [
        {
          id: 'q',
          format: 'dc+sd-jwt',
          meta: { vct_values: [VCT] },
          claims: [
            { id: 'email', path: ['email'] },
            { id: 'first', path: ['first_name'] },
            { id: 'last', path: ['last_name'] },
          ],
          claim_sets: [['email'], ['first', 'last']],
        },
      ],
    };
    const matches = matchDcqlQuery(withSets, [
      ada,
      { vct: VCT, claims: { first_name: 'Grace', last_name: 'Hopper' } },
      bob,
    ]);
    expect(matches.get('q')?.map((m) => m.disclose)).toEqual([['email'], ['first_name', 'last_name']]);
  });

  it('refuses claim_sets that name unknown claims, instead of letting an empty set match any credential of the type', () => {
    // The old matcher dropped the unknown id: the set became empty and every credential of the type matched.
    const unknownIds: DcqlQuery = {
      credentials: [
        {
          id: 'q',
          format: 'dc+sd-jwt',
          meta: { vct_values: [VCT] },
          claims: [{ id: 'age', path: ['age'] }],
          claim_sets: [['ghost']],
        },
      ],
    };
    expect(() => matchDcqlQuery(unknownIds, [ada, bob])).toThrow(expect.objectContaining({ code: 'REQUEST_INVALID' }));
    expect(() => validateDcqlQuery(unknownIds)).toThrow(expect.objectContaining({ code: 'REQUEST_INVALID' }));
  });

  it('matches the draft format name vc+sd-jwt to the same credentials', () => {
    const draft: DcqlQuery = { credentials: [{ id: 'q', format: 'vc+sd-jwt', meta: { vct_values: [VCT] } }] };
    expect(matchDcqlQuery(draft, [ada, other]).get('q')).toEqual([
      { queryId: 'q', credential: ada, disclose: [], paths: [] },
    ]);
  });
});

describe('validateDcqlQuery', () => {
  const membership = {
    id: 'membership',
    format: 'dc+sd-jwt',
    meta: { vct_values: [VCT] },
    claims: [{ path: ['age'] }],
  };
  it('accepts a valid query as sent', () => {
    const query = { credentials: [membership], credential_sets: [{ options: [['membership']] }] };
    expect(validateDcqlQuery(query)).toBe(query);
  });
  it.each([
    ['no query', undefined],
    ['no credentials', { credentials: [] }],
    [
      'unknown ids in credential_sets',
      { credentials: [membership], credential_sets: [{ options: [['membership', 'ghost']] }] },
    ],
    ['no options', { credentials: [membership], credential_sets: [{ options: [] }] }],
    ['an empty option', { credentials: [membership], credential_sets: [{ options: [[]] }] }],
    [
      'a non-boolean required',
      { credentials: [membership], credential_sets: [{ options: [['membership']], required: 'yes' }] },
    ],
    ['duplicate ids', { credentials: [membership, membership] }],
    ['an id with a space', { credentials: [{ ...membership, id: 'has space' }] }],
    ['too many queries', { credentials: Array.from({ length: 17 }, (_, i) => ({ ...membership, id: `q${i}` })) }],
  ])('refuses %s', (_name, query) => {
    expect(() => validateDcqlQuery(query)).toThrow(expect.objectContaining({ code: 'REQUEST_INVALID' }));
  });
});

describe('answersRequest (OpenID4VP 1.0 §6.4.2)', () => {
  const q = (id: string) => ({ id, format: 'dc+sd-jwt', meta: { vct_values: [VCT] } });
  it('without credential_sets: every query, nothing else', () => {
    const query: DcqlQuery = { credentials: [q('a'), q('b')] };
    expect(answersRequest(query, ['a', 'b'])).toBe(true);
    expect(answersRequest(query, ['a'])).toBe(false);
    expect(answersRequest(query, ['a', 'a'])).toBe(false);
    expect(answersRequest(query, [])).toBe(false);
  });
  it('with credential_sets: one option of each required set, at most one of an optional one', () => {
    const query: DcqlQuery = {
      credentials: [q('passport'), q('membership'), q('diploma')],
      credential_sets: [{ options: [['passport'], ['membership']] }, { required: false, options: [['diploma']] }],
    };
    expect(answersRequest(query, ['membership'])).toBe(true);
    expect(answersRequest(query, ['passport', 'diploma'])).toBe(true);
    expect(answersRequest(query, ['passport', 'membership'])).toBe(false);
    expect(answersRequest(query, ['diploma'])).toBe(false);
  });
});
