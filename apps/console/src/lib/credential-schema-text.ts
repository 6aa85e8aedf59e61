import type { CredentialSchema } from '@cp/contracts';
import type { Translator } from '../i18n/index.ts';

const PLATFORM_SLUGS = new Set(['kyc', 'educational-certificate', 'work-certificate']);

/**
 * A credential schema or a reference to one (a verification's or a credential's `schema`): slug and deleteable are
 * optional there because older API answers lack them, and such a schema is shown as written.
 */
type CredentialSchemaTextSource = Pick<CredentialSchema, 'name'> &
  Partial<Pick<CredentialSchema, 'description' | 'slug' | 'deleteable'>>;

/**
 * Shared by the schema pages, the issuing wizard, the credentials list and the verifications. Platform schemas are
 * stored in English; the console shows their name and description in the user's language. An organization's own
 * schemas are shown as written.
 */
export function credentialSchemaText(schema: CredentialSchemaTextSource, i18n: Translator) {
  const isPlatform = schema.deleteable === false && schema.slug !== undefined && PLATFORM_SLUGS.has(schema.slug);
  if (!isPlatform) return { name: schema.name, description: schema.description ?? null };
  const key = `platformSchemas.${schema.slug}`;
  return { name: i18n.t(`${key}.name`), description: i18n.t(`${key}.description`) };
}
