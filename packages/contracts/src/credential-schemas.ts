import { z } from 'zod';
import { pageOf } from './common.ts';

export const credentialSchemaAttributeTypes = ['TEXT', 'NUMBER', 'BOOLEAN', 'URL', 'DATETIME', 'EMAIL'] as const;
export const zCredentialSchemaAttributeType = z.enum(credentialSchemaAttributeTypes);
export type CredentialSchemaAttributeType = z.infer<typeof zCredentialSchemaAttributeType>;

export const CREDENTIAL_SCHEMA_NAME_MAX = 120;
export const CREDENTIAL_SCHEMA_DESCRIPTION_MAX = 1000;
export const CREDENTIAL_SCHEMA_ATTRIBUTES_MAX = 50;
export const CREDENTIAL_SCHEMA_ATTRIBUTE_DESCRIPTION_MAX = 500;

/** An attribute name becomes a claim name in the issued SD-JWT VC: a letter, then letters, digits or `_`. */
export const CREDENTIAL_SCHEMA_ATTRIBUTE_NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/i;

/**
 * Claim names the credential format itself uses (RFC 7519 §4.1, SD-JWT §4.2, SD-JWT VC §3.2.2, RFC 7800):
 * an attribute of that name would clash with them.
 */
export const CREDENTIAL_SCHEMA_RESERVED_ATTRIBUTE_NAMES = [
  'iss',
  'sub',
  'aud',
  'exp',
  'nbf',
  'iat',
  'jti',
  'cnf',
  'vct',
  'status',
  '_sd',
  '_sd_alg',
] as const;

export const isReservedAttributeName = (name: string) =>
  (CREDENTIAL_SCHEMA_RESERVED_ATTRIBUTE_NAMES as readonly string[]).includes(name.toLowerCase());

export const zCredentialSchemaAttributeName = z
  .string()
  .trim()
  .regex(CREDENTIAL_SCHEMA_ATTRIBUTE_NAME_PATTERN, {
    message: 'Use a letter, then letters, digits or underscores (at most 64 characters).',
  })
  .refine((name) => !isReservedAttributeName(name), { message: 'This name is reserved by the credential format.' });

export const zCreateCredentialSchemaAttribute = z.strictObject({
  name: zCredentialSchemaAttributeName,
  description: z.string().trim().max(CREDENTIAL_SCHEMA_ATTRIBUTE_DESCRIPTION_MAX).optional(),
  type: zCredentialSchemaAttributeType,
});
export type CreateCredentialSchemaAttribute = z.infer<typeof zCreateCredentialSchemaAttribute>;

export const zCreateCredentialSchemaRequest = z.strictObject({
  name: z.string().trim().min(1).max(CREDENTIAL_SCHEMA_NAME_MAX),
  description: z.string().trim().max(CREDENTIAL_SCHEMA_DESCRIPTION_MAX).optional(),
  attributes: z
    .array(zCreateCredentialSchemaAttribute)
    .min(1)
    .max(CREDENTIAL_SCHEMA_ATTRIBUTES_MAX)
    .superRefine((attributes, context) => {
      // Claim names are case-sensitive in JSON, but `Name` and `name` side by side only confuse holders.
      const seen = new Set<string>();
      attributes.forEach((attribute, index) => {
        const key = attribute.name.toLowerCase();
        if (seen.has(key)) {
          context.addIssue({ code: 'custom', path: [index, 'name'], message: 'Attribute names must be unique.' });
        }
        seen.add(key);
      });
    }),
});
export type CreateCredentialSchemaRequest = z.infer<typeof zCreateCredentialSchemaRequest>;

export const zCredentialSchemaAttribute = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  type: zCredentialSchemaAttributeType,
});
export type CredentialSchemaAttribute = z.infer<typeof zCredentialSchemaAttribute>;

export const zCredentialSchemaCreator = z.object({
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  username: z.string().nullable(),
});
export type CredentialSchemaCreator = z.infer<typeof zCredentialSchemaCreator>;

export const zCredentialSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  /** URL-safe and stable: the SD-JWT VC `vct` is built from it. */
  slug: z.string(),
  /** False for the platform's own schemas. */
  deleteable: z.boolean(),
  /** Verify-only schemas (KYC) cannot be issued. */
  issue_disabled: z.boolean(),
  /** Null for platform schemas, schemas created with an API key, and creators since deleted. */
  created: zCredentialSchemaCreator.nullable(),
  created_at: z.iso.datetime({ offset: true }),
  attributes: z.array(zCredentialSchemaAttribute),
});
export type CredentialSchema = z.infer<typeof zCredentialSchema>;

export const zCredentialSchemaPage = pageOf(zCredentialSchema);
export type CredentialSchemaPage = z.infer<typeof zCredentialSchemaPage>;
