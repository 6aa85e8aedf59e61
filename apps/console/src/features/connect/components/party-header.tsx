import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from '../../../i18n/index.ts';

/** Who issues the credential or asks for the verification: logo (or initial), name, and "Verified" after KYB. */
export function PartyHeader({
  label,
  party,
  testId,
}: {
  /** "Issued by", "Requested by". */
  label: string;
  party: { name: string; logo_url: string | null; verified: boolean };
  /** Of the name; the "Verified" chip's is `${testId}-verified`. */
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 3, minWidth: 0 }}>
      <Avatar src={party.logo_url ?? undefined} alt="" sx={{ width: 48, height: 48 }}>
        {party.name.slice(0, 1).toUpperCase()}
      </Avatar>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {label}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }} data-testid={testId}>
            {party.name}
          </Typography>
          {party.verified && (
            <Chip
              size="small"
              color="success"
              variant="outlined"
              icon={<VerifiedOutlined />}
              label={t('connect.verified')}
              data-testid={`${testId}-verified`}
            />
          )}
        </Box>
      </Box>
    </Box>
  );
}
