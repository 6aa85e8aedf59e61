import { zCreateVerificationRequest } from '@cp/contracts';
import { describe, expect, it } from 'vitest';
import { verification } from './test-fixtures.tsx';
import {
  emptyVerificationForm,
  formatClaimPath,
  formFieldOfPath,
  parseClaimPath,
  parseMdocClaimPath,
  toVerificationRequest,
  verificationFormValues,
} from './verification-form-values.ts';

describe('formFieldOfPath (422 errors[].path → form field)', () => {
  it.each([
    ['attributes.0.value', 'rules.0.value'],
    ['attributes[2].operator', 'rules.2.operator'],
    ['/attributes/1/attribute_id', 'rules.1.attribute'],
    ['attributes.1.claim', 'rules.1.attribute'],
    ['attributes.3.type', 'rules.3.attribute'],
    ['attributes.4', 'rules.4.value'],
    ['body.name', 'name'],
    ['schema_id', 'schema_id'],
    ['trust_policy', 'trust_policy'],
    // "Name at least one trusted issuer" shows with the policy that needs it.
    ['trusted_issuers', 'trust_policy'],
    ['trusted_issuers.1', 'trusted_issuers.1.value'],
    ['requested_attribute_ids.0', 'requested'],
    ['requested_claims.2', 'requested'],
    ['credential.vct_values.1', 'vct_values.1.value'],
    ['credential.claims.0.path', 'claims.0.path'],
    ['credential.claims[2].type', 'claims.2.type'],
    ['credential.claims.3', 'claims.3.name'],
  ])('%s → %s', (path, field) => {
    expect(formFieldOfPath(path)).toBe(field);
  });

  it.each(['attributes', 'credential', 'credential.vct_values', 'unknown.0', ''])('%j names no field', (path) => {
    expect(formFieldOfPath(path)).toBeNull();
  });
});

describe('parseClaimPath (a typed dotted path → a DCQL claims path)', () => {
  it.each([
    ['given_name', ['given_name']],
    ['address.country', ['address', 'country']],
    [' nationalities . 0 ', ['nationalities', 0]],
    ['degrees.*.type', ['degrees', null, 'type']],
  ])('%j → %j', (text, path) => {
    expect(parseClaimPath(text)).toEqual(path);
    expect(formatClaimPath(parseClaimPath(text) ?? [])).toBe(text.replace(/\s/g, ''));
  });

  it.each(['', 'address.', '.country', 'a..b', '0.name', '*'])('%j is not a path', (text) => {
    expect(parseClaimPath(text)).toBeNull();
  });
});

describe('toVerificationRequest', () => {
  it('asks for another issuer’s type by claim names, and the contract accepts it', () => {
    const values = {
      ...emptyVerificationForm('SINGLE'),
      name: ' Residence ',
      source: 'EXTERNAL' as const,
      vct_values: [{ value: 'urn:eudi:pid:1' }],
      claims: [
        { name: 'country', path: 'address.country', type: 'TEXT' as const },
        { name: 'age', path: 'age_in_years', type: 'NUMBER' as const },
      ],
      rules: [{ attribute: 'age', operator: 'BIGGER' as const, value: ' 17 ' }],
      requested: ['country'],
      trust_policy: 'TRUST_ANCHORS' as const,
      trusted_issuers: [{ value: 'https://left.over.example' }],
    };
    const request = toVerificationRequest(values, undefined);
    expect(request).toEqual({
      name: 'Residence',
      type: 'SINGLE',
      trust_policy: 'TRUST_ANCHORS',
      // Only NAMED_ISSUERS keeps its list.
      trusted_issuers: [],
      client_id_scheme: 'x509_hash',
      credential: {
        format: 'dc+sd-jwt',
        vct_values: ['urn:eudi:pid:1'],
        claims: [
          { name: 'country', path: ['address', 'country'], type: 'TEXT' },
          { name: 'age', path: ['age_in_years'], type: 'NUMBER' },
        ],
      },
      attributes: [{ claim: 'age', operator: 'BIGGER', value: '17', type: 'NUMBER' }],
      requested_claims: ['country', 'age'],
    });
    expect(zCreateVerificationRequest.safeParse(request).success).toBe(true);
  });

  it('prefills a verification of another issuer’s type, back to the same request', () => {
    const external = verification('55555555-5555-4555-8555-555555555555', {
      schema: null,
      credential: {
        format: 'dc+sd-jwt',
        vct_values: ['https://issuer.example.com/pid'],
        claims: [
          { name: 'country', path: ['address', 'country'], type: 'TEXT' },
          { name: 'nationality', path: ['nationalities', 0], type: 'TEXT' },
        ],
      },
      attributes: [{ attribute_id: null, name: 'country', operator: 'EQUAL', value: 'JP', type: 'TEXT' }],
      requested_claims: ['country', 'nationality'],
      requested_attribute_ids: [],
      trust_policy: 'NAMED_ISSUERS',
      trusted_issuers: ['https://issuer.example.com'],
    });
    const values = verificationFormValues(external);
    expect(values.source).toBe('EXTERNAL');
    expect(values.claims.map((claim) => claim.path)).toEqual(['address.country', 'nationalities.0']);
    expect(values.rules).toEqual([{ attribute: 'country', operator: 'EQUAL', value: 'JP' }]);
    expect(toVerificationRequest(values, undefined)).toMatchObject({
      credential: external.credential,
      attributes: [{ claim: 'country', operator: 'EQUAL', value: 'JP', type: 'TEXT' }],
      requested_claims: ['country', 'nationality'],
      trust_policy: 'NAMED_ISSUERS',
      trusted_issuers: ['https://issuer.example.com'],
    });
  });

  it('asks for a schema as an mdoc only when told (the default format goes unsaid)', () => {
    const values = { ...emptyVerificationForm(), name: 'Members', schema_id: '11111111-1111-4111-8111-111111111111' };
    expect(toVerificationRequest(values, undefined)).not.toHaveProperty('format');
    const mdoc = toVerificationRequest({ ...values, format: 'mso_mdoc' }, undefined);
    expect(mdoc).toMatchObject({ format: 'mso_mdoc' });
    expect(zCreateVerificationRequest.safeParse(mdoc).success).toBe(true);
    const saved = verification('55555555-5555-4555-8555-555555555555', { format: 'mso_mdoc' });
    expect(verificationFormValues(saved).format).toBe('mso_mdoc');
  });

  it('asks for another issuer’s mdoc by doctype and namespace.element paths, and back', () => {
    const values = {
      ...emptyVerificationForm(),
      name: 'Driving licence',
      source: 'EXTERNAL' as const,
      format: 'mso_mdoc' as const,
      doctype_value: ' org.iso.18013.5.1.mDL ',
      claims: [{ name: 'family_name', path: 'org.iso.18013.5.1.family_name', type: 'TEXT' as const }],
    };
    const request = toVerificationRequest(values, undefined);
    expect(request.credential).toEqual({
      format: 'mso_mdoc',
      doctype_value: 'org.iso.18013.5.1.mDL',
      claims: [{ name: 'family_name', path: ['org.iso.18013.5.1', 'family_name'], type: 'TEXT' }],
    });
    expect(zCreateVerificationRequest.safeParse(request).success).toBe(true);
    const saved = verification('55555555-5555-4555-8555-555555555555', {
      schema: null,
      format: 'mso_mdoc',
      credential: request.credential ?? null,
      requested_claims: ['family_name'],
      requested_attribute_ids: [],
    });
    const prefilled = verificationFormValues(saved);
    expect(prefilled).toMatchObject({ format: 'mso_mdoc', doctype_value: 'org.iso.18013.5.1.mDL' });
    expect(prefilled.claims[0]?.path).toBe('org.iso.18013.5.1.family_name');
    expect(toVerificationRequest(prefilled, undefined).credential).toEqual(request.credential);
  });

  it.each([
    ['org.iso.18013.5.1.family_name', ['org.iso.18013.5.1', 'family_name']],
    [' ns.el ', ['ns', 'el']],
  ])('reads the mdoc path %j as %j', (text, path) => {
    expect(parseMdocClaimPath(text)).toEqual(path);
  });

  it.each(['', 'family_name', '.family_name', 'ns.', 'name space.el'])('%j is not an mdoc path', (text) => {
    expect(parseMdocClaimPath(text)).toBeNull();
  });

  it('prefills ANY_ISSUER as already confirmed (the warning stays on screen)', () => {
    const values = verificationFormValues(
      verification('55555555-5555-4555-8555-555555555555', { trust_policy: 'ANY_ISSUER' }),
    );
    expect(values.trust_policy).toBe('ANY_ISSUER');
    expect(values.any_issuer_confirmed).toBe(true);
  });
});
