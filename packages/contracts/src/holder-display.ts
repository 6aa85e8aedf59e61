import { z } from 'zod';
import { LANGUAGES } from './languages.ts';

/**
 * What the public holder pages (claim a credential, share one with a verifier) show of the organization and of
 * the claims: the organization's own look, and the claims' labels in the holder's language.
 */

/** The languages of the product: a label is answered in each, the page picks the one it shows. */
export const holderLocales = LANGUAGES;
export type HolderLocale = (typeof holderLocales)[number];

export const zLocalizedLabel = z.object({ en: z.string(), ja: z.string(), es: z.string(), ko: z.string() });
export type LocalizedLabel = z.infer<typeof zLocalizedLabel>;

/**
 * A claim as holders read it: its name in the credential (`clearance_level`) and its label per language — the
 * platform schemas' translations, an organization schema's attribute name made readable ("Clearance level").
 */
export const zClaimLabel = z.object({ name: z.string(), label: zLocalizedLabel });
export type ClaimLabel = z.infer<typeof zClaimLabel>;

/** The issuer or verifier as the holder pages show it. */
export const zHolderOrganization = z.object({
  name: z.string(),
  /** Absolute public address of the organization's logo (anyone holding the link can load it); null without one. */
  logo_url: z.string().nullable(),
  /** The organization passed KYB ("verified organization"). */
  verified: z.boolean(),
  /** `#rrggbb`, or null for the product's colours. */
  brand_color: z.string().nullable(),
});
export type HolderOrganization = z.infer<typeof zHolderOrganization>;
