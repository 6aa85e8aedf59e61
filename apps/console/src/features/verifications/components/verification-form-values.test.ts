import { describe, expect, it } from 'vitest';
import { formFieldOfPath } from './verification-form-values.ts';

describe('formFieldOfPath (422 errors[].path → form field)', () => {
  it.each([
    ['attributes.0.value', 'rules.0.value'],
    ['attributes[2].operator', 'rules.2.operator'],
    ['/attributes/1/attribute_id', 'rules.1.attribute_id'],
    ['attributes.3.type', 'rules.3.attribute_id'],
    ['attributes.4', 'rules.4.value'],
    ['body.name', 'name'],
    ['schema_id', 'schema_id'],
    ['trusted_issuers.1', 'trusted_issuers.1.value'],
    ['requested_attribute_ids.0', 'requested_attribute_ids'],
  ])('%s → %s', (path, field) => {
    expect(formFieldOfPath(path)).toBe(field);
  });

  it.each(['attributes', 'trusted_issuers', 'unknown.0', ''])('%j names no field', (path) => {
    expect(formFieldOfPath(path)).toBeNull();
  });
});
