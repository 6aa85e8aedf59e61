import GppMaybeOutlined from '@mui/icons-material/GppMaybeOutlined';
import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { IssuerInfo } from '../app/core-api.ts';
import { pickDisplay } from '../app/core-api.ts';
import { currentLanguage } from '../i18n/index.ts';

/** The issuer's logo, name, identifier and whether the platform verified the organization. */
export function IssuerSummary({ issuer }: { issuer: IssuerInfo }) {
  const { t } = useTranslation();
  const name = pickDisplay(issuer.name, currentLanguage()) || issuer.id;
  return (
    <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
      <Avatar
        src={issuer.logoUri}
        alt=""
        variant="rounded"
        sx={{ width: 48, height: 48, bgcolor: 'primary.50', color: 'primary.main' }}
      >
        {name.slice(0, 1).toUpperCase()}
      </Avatar>
      <Box sx={{ minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600 }}>{name}</Typography>
        <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block', wordBreak: 'break-all' }}>
          {issuer.id}
        </Typography>
        {issuer.verifiedOrganization ? (
          <Chip
            icon={<VerifiedOutlined />}
            label={t('detail.verifiedOrganization')}
            color="success"
            size="small"
            variant="outlined"
            sx={{ mt: 0.5 }}
            data-testid="issuer-verified"
          />
        ) : (
          <Chip
            icon={<GppMaybeOutlined />}
            label={t('detail.unverifiedOrganization')}
            size="small"
            variant="outlined"
            sx={{ mt: 0.5 }}
          />
        )}
      </Box>
    </Box>
  );
}
