import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import SearchOffOutlined from '@mui/icons-material/SearchOffOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Typography from '@mui/material/Typography';
import { useTranslation } from '../i18n/index.ts';
import { isNotFound } from '../lib/api-error.ts';
import { useIdentity } from '../lib/identity-context.ts';
import { RouterLink } from './router-link.tsx';

/** The kinds of record a page loads by the id in its address, each with the list it belongs to. */
export type RecordKind = 'verification' | 'credentialSchema' | 'credential' | 'organization';

function listPath(kind: RecordKind, organizationId: string | undefined): string {
  switch (kind) {
    case 'verification':
      return '/verifications';
    case 'credentialSchema':
      return '/schemas';
    case 'credential':
      return organizationId ? `/credentials/${encodeURIComponent(organizationId)}` : '/credentials';
    default:
      return '/';
  }
}

/**
 * What a page that loads one record by id shows when the load failed. A record that is not there (deleted, another
 * organization's, a mistyped id: `isNotFound`) is said so in plain words with the way back to its list, and no
 * "Try again", which could not help. Any other failure keeps the spec's catalogue message (§8) and a retry.
 */
export function RecordLoadError({
  kind,
  error,
  catalogueKey,
  onRetry,
  testId,
}: {
  kind: RecordKind;
  error: unknown;
  /** The spec §8 message of the failed call. */
  catalogueKey: string;
  onRetry: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const { current } = useIdentity();
  if (isNotFound(error)) {
    return (
      <Card
        sx={{ px: { xs: 3, md: 6 }, py: { xs: 5, md: 7 }, textAlign: 'center' }}
        data-testid={`${testId}-not-found`}
      >
        <Box
          sx={{
            width: 56,
            height: 56,
            mx: 'auto',
            mb: 2.5,
            borderRadius: '50%',
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'grey.100',
            color: 'text.secondary',
          }}
        >
          <SearchOffOutlined />
        </Box>
        <Typography variant="h4" component="h2" sx={{ fontSize: 18, lineHeight: '28px' }}>
          {t(`errors.gone.${kind}.title`)}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1, maxWidth: 440, mx: 'auto' }}>
          {t(`errors.gone.${kind}.body`)}
        </Typography>
        <Button
          variant="contained"
          component={RouterLink}
          to={listPath(kind, current?.id)}
          startIcon={<ArrowBackOutlined />}
          sx={{ mt: 3 }}
          data-testid={`${testId}-back`}
        >
          {t(`errors.gone.${kind}.back`)}
        </Button>
      </Card>
    );
  }
  return (
    <Card sx={{ p: 3, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }} data-testid={testId}>
      <Typography variant="body2" sx={{ color: 'error.main', flex: 1 }}>
        {t(catalogueKey)}
      </Typography>
      <Button variant="outlined" color="secondary" onClick={onRetry} data-testid={`${testId}-retry`}>
        {t('common.retry')}
      </Button>
    </Card>
  );
}
