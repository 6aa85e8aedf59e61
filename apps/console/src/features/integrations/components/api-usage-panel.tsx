import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { CopyField } from '../../../components/copy-field.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { curlExample, curlSchemasExample, SECRET_PLACEHOLDER } from './curl-example.ts';

/** "How to call the API": the base URL and curl commands with one of the organization's key ids. */
export function ApiUsagePanel({ baseUrl, keyId }: { baseUrl: string; keyId: string }) {
  const { t } = useTranslation();
  const secret = SECRET_PLACEHOLDER;
  return (
    <Card sx={{ p: { xs: 2.5, md: 3 }, mt: 3 }} data-testid="integration-usage">
      <Typography variant="h4" component="h2" sx={{ fontSize: 18, lineHeight: '28px' }}>
        {t('integrations.usage.title')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5, maxWidth: 720 }}>
        {t('integrations.usage.body')}
      </Typography>
      <Box
        sx={{
          mt: 2.5,
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 1fr) minmax(0, 1fr)' },
          gap: 2.5,
        }}
      >
        <CopyField
          label={t('integrations.fields.baseUrl')}
          value={baseUrl}
          copyLabel={t('integrations.copyBaseUrl')}
          valueTestId="integration-base-url"
        />
        <CopyField
          label={t('integrations.usage.checkKey')}
          value={curlExample(baseUrl, keyId, secret)}
          copyLabel={t('integrations.copyCommand')}
          multiline
        />
        <CopyField
          label={t('integrations.usage.listSchemas')}
          value={curlSchemasExample(baseUrl, keyId, secret)}
          copyLabel={t('integrations.copyCommand')}
          multiline
        />
        <Box sx={{ alignSelf: 'end' }}>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('integrations.usage.limits')}
          </Typography>
          <Link
            href={`${baseUrl}/docs`}
            target="_blank"
            rel="noopener"
            variant="subtitle1"
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mt: 1 }}
          >
            {t('integrations.usage.reference')}
            <OpenInNewOutlined sx={{ fontSize: 16 }} />
          </Link>
        </Box>
      </Box>
    </Card>
  );
}
