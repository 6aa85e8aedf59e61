import type { HolderOrganization } from '@cp/contracts';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Skeleton from '@mui/material/Skeleton';
import type { ReactNode } from 'react';
import { LanguageSelect } from '../../../components/language-select.tsx';
import { OrganizationBand } from '../../../components/organization-band.tsx';
import { useTranslation } from '../../../i18n/index.ts';

/** Who the page is about: the organization, what it does ("Issued by", "Requested by"), and the band's test id. */
export interface HolderParty {
  label: string;
  organization: HolderOrganization;
  testId: string;
}

/**
 * The frame of the public holder pages: the language choice (no sign-in, no settings) above one card that opens
 * with the organization's band (its logo, name, KYB badge, in its colour) — the holder deals with the
 * organization; the product only signs the footer. `party` undefined: not known (yet or at all); 'loading':
 * a placeholder band while it loads.
 */
export function HolderPage({
  testId,
  languageTestId,
  party,
  children,
}: {
  testId: string;
  languageTestId: string;
  party?: HolderParty | 'loading' | undefined;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Box data-testid={testId}>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 2 }}>
        <LanguageSelect testId={languageTestId} />
      </Box>
      <Card sx={{ overflow: 'hidden' }}>
        {party === 'loading' ? (
          <Box
            sx={{
              display: 'flex',
              alignItems: 'center',
              gap: 1.75,
              px: { xs: 2.5, sm: 4 },
              py: { xs: 2.25, sm: 2.75 },
            }}
          >
            <Skeleton variant="rounded" width={56} height={56} />
            <Box sx={{ flex: 1 }}>
              <Skeleton width={90} />
              <Skeleton width={200} height={28} />
            </Box>
          </Box>
        ) : party ? (
          <OrganizationBand
            label={party.label}
            name={party.organization.name}
            logoUrl={party.organization.logo_url}
            brandColor={party.organization.brand_color}
            verifiedLabel={party.organization.verified ? t('connect.verifiedOrganization') : null}
            logoAlt={t('connect.logoAlt', { name: party.organization.name })}
            testId={party.testId}
          />
        ) : null}
        {children}
      </Card>
    </Box>
  );
}
