import type { WalletProvider } from '@cp/contracts';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ResponsiveTable, type ResponsiveTableColumn } from '../../../components/responsive-table.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { formatFingerprint } from '../../../lib/certificate-file.ts';
import { useCopyToClipboard } from '../../../lib/use-copy-to-clipboard.ts';

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 12 } as const;
/** A provider certificate that expires within this many days is flagged: its attestations stop passing then. */
const EXPIRES_SOON_DAYS = 30;

/**
 * The organization's trusted wallet providers as a table from `md` up and as stacked items on phones: name and
 * kind (a CA, or the attestation signing certificate itself), subject, fingerprint (shortened, copyable), expiry.
 */
export function WalletProvidersTable({
  providers,
  onDelete,
  now = new Date(),
}: {
  providers: WalletProvider[];
  onDelete: (provider: WalletProvider) => void;
  now?: Date;
}) {
  const { t } = useTranslation();
  const columns: ResponsiveTableColumn<WalletProvider>[] = [
    {
      id: 'name',
      header: t('walletProviders.columns.name'),
      cell: (p) => <NameCell provider={p} />,
      sx: { maxWidth: 260 },
    },
    {
      id: 'subject',
      header: t('walletProviders.columns.subject'),
      cell: (p) => (
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }} data-testid={`wallet-provider-subject-${p.id}`}>
          {p.subject}
        </Typography>
      ),
      sx: { maxWidth: 260 },
    },
    {
      id: 'fingerprint',
      header: t('walletProviders.columns.fingerprint'),
      cell: (p) => <Fingerprint provider={p} />,
      sx: { whiteSpace: 'nowrap' },
    },
    {
      id: 'expires',
      header: t('walletProviders.columns.expires'),
      cell: (p) => <Expiry provider={p} now={now} />,
      sx: { whiteSpace: 'nowrap' },
    },
  ];
  const actions = (provider: WalletProvider) => (
    <Tooltip title={t('walletProviders.delete')}>
      <IconButton
        aria-label={t('walletProviders.deleteNamed', { name: provider.name })}
        onClick={() => onDelete(provider)}
        data-testid={`wallet-provider-delete-${provider.id}`}
        sx={{ '&:hover': { color: 'error.main' } }}
      >
        <DeleteOutlineOutlined fontSize="small" />
      </IconButton>
    </Tooltip>
  );
  return (
    <ResponsiveTable
      label={t('walletProviders.title')}
      rows={providers}
      columns={columns}
      actionsLabel={t('walletProviders.columns.actions')}
      renderActions={actions}
      testId="wallet-providers-table"
      rowTestId={(provider) => `wallet-provider-row-${provider.id}`}
      renderMobileItem={(provider) => (
        <>
          <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
            <NameCell provider={provider} />
            <Box sx={{ mr: -1, mt: -0.5, flexShrink: 0 }}>{actions(provider)}</Box>
          </Box>
          <Box
            component="dl"
            sx={{
              m: 0,
              mt: 1,
              display: 'grid',
              gridTemplateColumns: 'auto minmax(0, 1fr)',
              columnGap: 2,
              rowGap: 0.5,
              '& dt': { color: 'text.secondary', typography: 'body2' },
              '& dd': { m: 0, typography: 'body2', minWidth: 0, overflowWrap: 'anywhere' },
            }}
          >
            <dt>{t('walletProviders.columns.subject')}</dt>
            <dd>{provider.subject}</dd>
            <dt>{t('walletProviders.columns.fingerprint')}</dt>
            <dd>
              <Fingerprint provider={provider} />
            </dd>
            <dt>{t('walletProviders.columns.expires')}</dt>
            <dd>
              <Expiry provider={provider} now={now} />
            </dd>
          </Box>
        </>
      )}
    />
  );
}

function NameCell({ provider }: { provider: WalletProvider }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', minWidth: 0 }}>
      <Typography variant="subtitle1" component="span" sx={{ color: 'text.primary', overflowWrap: 'anywhere' }}>
        {provider.name}
      </Typography>
      <Chip
        size="small"
        label={t(`walletProviders.kinds.${provider.kind}`)}
        data-testid={`wallet-provider-kind-${provider.id}`}
        sx={{ height: 22, fontSize: 12, bgcolor: provider.kind === 'CA' ? 'grey.100' : 'primary.50' }}
      />
    </Box>
  );
}

function Fingerprint({ provider }: { provider: WalletProvider }) {
  const { t } = useTranslation();
  const copy = useCopyToClipboard();
  const { full, short } = formatFingerprint(provider.fingerprint);
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      <Tooltip title={full}>
        <Box
          component="code"
          sx={{ ...mono, whiteSpace: 'nowrap' }}
          data-testid={`wallet-provider-fingerprint-${provider.id}`}
        >
          {short}
        </Box>
      </Tooltip>
      <Tooltip title={t('walletProviders.copyFingerprint')}>
        <IconButton
          size="small"
          aria-label={t('walletProviders.copyFingerprintNamed', { name: provider.name })}
          onClick={() => void copy(full, t('walletProviders.fingerprintCopied'))}
        >
          <ContentCopyOutlined sx={{ fontSize: 16 }} />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

function Expiry({ provider, now }: { provider: WalletProvider; now: Date }) {
  const { t, i18n } = useTranslation();
  const expiresAt = new Date(provider.not_after).getTime();
  const isExpired = expiresAt <= now.getTime();
  const isSoon = !isExpired && expiresAt - now.getTime() < EXPIRES_SOON_DAYS * 86_400_000;
  return (
    <Box
      component="span"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
      data-testid={`wallet-provider-expires-${provider.id}`}
    >
      <Typography variant="body2" component="span">
        {new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(provider.not_after))}
      </Typography>
      {(isExpired || isSoon) && (
        <Chip
          size="small"
          color={isExpired ? 'error' : 'warning'}
          variant="outlined"
          label={t(isExpired ? 'walletProviders.expired' : 'walletProviders.expiresSoon')}
          sx={{ height: 22, fontSize: 12 }}
        />
      )}
    </Box>
  );
}
