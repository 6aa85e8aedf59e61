import type { CredentialSchema, CredentialSchemaAttributeType } from '@cp/contracts';
import { credentialSchemaAttributeTypes } from '@cp/contracts';
import type { CredentialSchemaRecord } from './credential-schemas.repository.ts';

const asType = (value: string): CredentialSchemaAttributeType =>
  (credentialSchemaAttributeTypes as readonly string[]).includes(value)
    ? (value as CredentialSchemaAttributeType)
    : 'TEXT';

export function presentCredentialSchema(record: CredentialSchemaRecord): CredentialSchema {
  const { schema, creator } = record;
  return {
    id: schema.id,
    name: schema.name,
    description: schema.description,
    slug: schema.slug,
    deleteable: schema.organizationId !== null,
    issue_disabled: schema.issueDisabled,
    created: creator
      ? { first_name: creator.firstName, last_name: creator.lastName, username: creator.username }
      : null,
    created_at: schema.createdAt.toISOString(),
    attributes: record.attributes.map((a) => ({
      id: a.id,
      name: a.name,
      description: a.description,
      type: asType(a.type),
    })),
  };
}
