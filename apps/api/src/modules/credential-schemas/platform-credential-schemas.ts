import type { CredentialSchemaAttributeType } from '@cp/contracts';

export interface PlatformCredentialSchema {
  /** Fixed, so the `vct` of credentials issued from a platform schema is the same on every installation. */
  slug: string;
  name: string;
  description: string;
  issueDisabled: boolean;
  attributes: { name: string; type: CredentialSchemaAttributeType; description: string | null }[];
}

const text = (name: string) => ({ name, type: 'TEXT' as const, description: null });
const datetime = (name: string) => ({ name, type: 'DATETIME' as const, description: null });

/** Schemas every organization sees and none can delete, in the order they are listed. */
export const platformCredentialSchemas: PlatformCredentialSchema[] = [
  {
    slug: 'kyc',
    name: 'KYC',
    description: 'Identity document check (know your customer). For verification only: it cannot be issued.',
    issueDisabled: true,
    attributes: [
      text('first_name'),
      text('last_name'),
      text('gender'),
      text('id_number'),
      datetime('date_of_birth'),
      text('document_type'),
      { name: 'document_number', type: 'NUMBER', description: null },
      datetime('issued_date'),
    ],
  },
  {
    slug: 'educational-certificate',
    name: 'Educational Certificate',
    description: 'A diploma, degree or course certificate.',
    issueDisabled: false,
    attributes: [
      text('first_name'),
      text('last_name'),
      datetime('date_of_birth'),
      text('certificate_name'),
      text('field_of_study'),
      datetime('start_date'),
      datetime('end_date'),
      text('grade'),
      text('description'),
      datetime('expiration_date'),
    ],
  },
  {
    slug: 'work-certificate',
    name: 'Work Certificate',
    description: 'Proof of employment: role, place and period.',
    issueDisabled: false,
    attributes: [
      text('first_name'),
      text('last_name'),
      datetime('date_of_birth'),
      text('job_title'),
      text('location'),
      text('employment_type'),
      datetime('start_date'),
      datetime('end_date'),
      text('description'),
    ],
  },
];

const platformSlugs = new Set(platformCredentialSchemas.map((s) => s.slug));
/** Organization schema slugs end with 8 hex digits of their id, so they never take a platform slug. */
export const isPlatformSchemaSlug = (slug: string) => platformSlugs.has(slug);
