import type { ClaimLabel, HolderLocale } from '@cp/contracts';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from '../../../i18n/index.ts';

/** The languages claims are labelled in (`holderLocales` of the contract, kept here as plain values: see below). */
const LABEL_LANGUAGES: readonly string[] = ['en', 'ja', 'es', 'ko'] satisfies readonly HolderLocale[];

/**
 * A claim's label in the page's language (English for a language the API does not label in). The list above is not
 * imported from @cp/contracts: a value from there loads every zod schema with this public page (issue 8).
 */
export function claimLabelText(claim: ClaimLabel, language: string): string {
  const base = language.split('-')[0] ?? 'en';
  return (
    (LABEL_LANGUAGES.includes(base) ? claim.label[base as HolderLocale] : undefined) || claim.label.en || claim.name
  );
}

/** The claims a holder receives or shares, by their labels ("Clearance level", not `clearance_level`). */
export function ClaimLabelList({ title, claims, testId }: { title: string; claims: ClaimLabel[]; testId: string }) {
  const { i18n } = useTranslation();
  if (claims.length === 0) return null;
  return (
    <Box sx={{ mb: 3 }}>
      <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Box
        component="ul"
        data-testid={testId}
        sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexWrap: 'wrap', gap: 1 }}
      >
        {claims.map((claim) => (
          <li key={claim.name} data-claim={claim.name}>
            <Chip label={claimLabelText(claim, i18n.language)} size="small" variant="outlined" />
          </li>
        ))}
      </Box>
    </Box>
  );
}
