import type { CredentialSchema } from '@cp/contracts';
import type { i18n as I18n } from 'i18next';

const PLATFORM_SLUGS = new Set(['kyc', 'educational-certificate', 'work-certificate']);

/**
 * Shared by the schema pages and the issuing wizard. Platform schemas are stored in English; the console shows their name and description in the user's
 * language. An organization's own schemas are shown as written.
 */
export function credentialSchemaText(schema: CredentialSchema, i18n: I18n) {
  if (schema.deleteable || !PLATFORM_SLUGS.has(schema.slug)) {
    return { name: schema.name, description: schema.description };
  }
  const key = `platformSchemas.${schema.slug}`;
  return { name: i18n.t(`${key}.name`), description: i18n.t(`${key}.description`) };
}
