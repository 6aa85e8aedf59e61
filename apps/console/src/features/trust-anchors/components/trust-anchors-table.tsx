import type { TrustAnchor } from '@cp/contracts';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import ErrorOutlineOutlined from '@mui/icons-material/ErrorOutlineOutlined';
import RefreshOutlined from '@mui/icons-material/RefreshOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ResponsiveTable, type ResponsiveTableColumn } from '../../../components/responsive-table.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { formatFingerprint } from '../../../lib/certificate-file.ts';
import { useCopyToClipboard } from '../../../lib/use-copy-to-clipboard.ts';

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 } as const;
/** An anchor that expires within this many days is flagged: its issuers will be refused after that. */
const EXPIRES_SOON_DAYS = 30;

function useFormatDate() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  return (iso: string) => format.format(new Date(iso));
}

/**
 * The organization's trust anchors as a table from `md` up and as stacked items on phones (the same test ids):
 * name and kind, the certificate's subject, its fingerprint (shortened, copyable), expiry, and for a trusted
 * list how many certificates it held when last read, when, and the last error.
 */
export interface TrustAnchorActions {
  onDelete: (anchor: TrustAnchor) => void;
  /** Reads a trusted list again now. */
  onRefresh: (anchor: TrustAnchor) => void;
  /** The list being read again, if any. */
  refreshingId: string | null;
}

export function TrustAnchorsTable({
  anchors,
  now = new Date(),
  ...actions
}: TrustAnchorActions & { anchors: TrustAnchor[]; now?: Date }) {
  const { t } = useTranslation();
  const columns: ResponsiveTableColumn<TrustAnchor>[] = [
    {
      id: 'name',
      header: t('trustAnchors.columns.name'),
      cell: (anchor) => <NameCell anchor={anchor} />,
      sx: { maxWidth: 260 },
    },
    {
      id: 'subject',
      header: t('trustAnchors.columns.subject'),
      cell: (anchor) => <Subject anchor={anchor} />,
      sx: { maxWidth: 240 },
    },
    {
      id: 'fingerprint',
      header: t('trustAnchors.columns.fingerprint'),
      cell: (anchor) => <Fingerprint anchor={anchor} />,
      sx: { whiteSpace: 'nowrap' },
    },
    {
      id: 'expires',
      header: t('trustAnchors.columns.expires'),
      cell: (anchor) => <Expiry anchor={anchor} now={now} />,
      sx: { whiteSpace: 'nowrap' },
    },
    {
      id: 'status',
      header: t('trustAnchors.columns.status'),
      cell: (anchor) => <ListStatus anchor={anchor} />,
      sx: { maxWidth: 240 },
    },
  ];
  return (
    <ResponsiveTable
      label={t('trustAnchors.title')}
      rows={anchors}
      columns={columns}
      actionsLabel={t('trustAnchors.columns.actions')}
      renderActions={(anchor) => <RowActions anchor={anchor} {...actions} />}
      testId="trust-anchors-table"
      rowTestId={(anchor) => `trust-anchor-row-${anchor.id}`}
      renderMobileItem={(anchor) => (
        <>
          <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
            <NameCell anchor={anchor} />
            <Box sx={{ mr: -1, mt: -0.5, flexShrink: 0 }}>
              <RowActions anchor={anchor} {...actions} />
            </Box>
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
              alignItems: 'baseline',
              '& dt': { color: 'text.secondary', typography: 'body2' },
              '& dd': { m: 0, typography: 'body2', minWidth: 0, overflowWrap: 'anywhere' },
            }}
          >
            <dt>{t('trustAnchors.columns.subject')}</dt>
            <dd>
              <Subject anchor={anchor} />
            </dd>
            <dt>{t('trustAnchors.columns.fingerprint')}</dt>
            <dd>
              <Fingerprint anchor={anchor} />
            </dd>
            <dt>{t('trustAnchors.columns.expires')}</dt>
            <dd>
              <Expiry anchor={anchor} now={now} />
            </dd>
            {anchor.kind === 'TRUSTED_LIST' && (
              <>
                <dt>{t('trustAnchors.columns.status')}</dt>
                <dd>
                  <ListStatus anchor={anchor} />
                </dd>
              </>
            )}
          </Box>
        </>
      )}
    />
  );
}

function NameCell({ anchor }: { anchor: TrustAnchor }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="span" sx={{ color: 'text.primary', overflowWrap: 'anywhere' }}>
          {anchor.name}
        </Typography>
        <Chip
          size="small"
          label={t(`trustAnchors.kinds.${anchor.kind}`)}
          data-testid={`trust-anchor-kind-${anchor.id}`}
          sx={{ height: 22, fontSize: 12, bgcolor: anchor.kind === 'TRUSTED_LIST' ? 'primary.50' : 'grey.100' }}
        />
      </Box>
      {anchor.list_url && (
        <Box
          component="code"
          sx={{ ...mono, fontSize: 12, display: 'block', color: 'text.secondary', mt: 0.25, overflowWrap: 'anywhere' }}
        >
          {anchor.list_url}
        </Box>
      )}
    </Box>
  );
}

function Subject({ anchor }: { anchor: TrustAnchor }) {
  return (
    <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }} data-testid={`trust-anchor-subject-${anchor.id}`}>
      {anchor.subject ?? '—'}
    </Typography>
  );
}

function Fingerprint({ anchor }: { anchor: TrustAnchor }) {
  const { t } = useTranslation();
  const copy = useCopyToClipboard();
  if (!anchor.fingerprint) return <>—</>;
  const { full, short } = formatFingerprint(anchor.fingerprint);
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      <Tooltip title={full}>
        <Box
          component="code"
          sx={{ ...mono, fontSize: 12, whiteSpace: 'nowrap' }}
          data-testid={`trust-anchor-fingerprint-${anchor.id}`}
        >
          {short}
        </Box>
      </Tooltip>
      <Tooltip title={t('trustAnchors.copyFingerprint')}>
        <IconButton
          size="small"
          aria-label={t('trustAnchors.copyFingerprintNamed', { name: anchor.name })}
          onClick={() => void copy(full, t('trustAnchors.fingerprintCopied'))}
          data-testid={`trust-anchor-copy-fingerprint-${anchor.id}`}
        >
          <ContentCopyOutlined sx={{ fontSize: 16 }} />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

function Expiry({ anchor, now }: { anchor: TrustAnchor; now: Date }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  if (!anchor.not_after) return <>—</>;
  const expiresAt = new Date(anchor.not_after).getTime();
  const isExpired = expiresAt <= now.getTime();
  const isSoon = !isExpired && expiresAt - now.getTime() < EXPIRES_SOON_DAYS * 86_400_000;
  return (
    <Box
      component="span"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
      data-testid={`trust-anchor-expires-${anchor.id}`}
    >
      <Typography variant="body2" component="span">
        {formatDate(anchor.not_after)}
      </Typography>
      {(isExpired || isSoon) && (
        <Chip
          size="small"
          color={isExpired ? 'error' : 'warning'}
          variant="outlined"
          label={t(isExpired ? 'trustAnchors.expired' : 'trustAnchors.expiresSoon')}
          sx={{ height: 22, fontSize: 12 }}
        />
      )}
    </Box>
  );
}

function ListStatus({ anchor }: { anchor: TrustAnchor }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  // A CA certificate is itself the one certificate: only a list has a count, a last read and errors.
  if (anchor.kind !== 'TRUSTED_LIST') return <>—</>;
  return (
    <Box data-testid={`trust-anchor-list-${anchor.id}`}>
      <Typography variant="body2">
        {anchor.list_certificate_count === null
          ? t('trustAnchors.listNotRead')
          : t('trustAnchors.listCertificates', { count: anchor.list_certificate_count })}
      </Typography>
      {anchor.list_fetched_at && (
        <Typography variant="caption" sx={{ color: 'text.secondary', fontSize: 13, display: 'block' }}>
          {t('trustAnchors.listFetchedAt', { date: formatDate(anchor.list_fetched_at) })}
        </Typography>
      )}
      {anchor.list_error && (
        <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'flex-start', mt: 0.5 }}>
          <ErrorOutlineOutlined sx={{ fontSize: 16, color: 'error.main', mt: '2px' }} />
          <Typography
            variant="caption"
            sx={{ color: 'error.main', fontSize: 13, overflowWrap: 'anywhere' }}
            data-testid={`trust-anchor-list-error-${anchor.id}`}
          >
            {t('trustAnchors.listError', { error: anchor.list_error })}
          </Typography>
        </Box>
      )}
    </Box>
  );
}

function RowActions({ anchor, onDelete, onRefresh, refreshingId }: TrustAnchorActions & { anchor: TrustAnchor }) {
  const { t } = useTranslation();
  return (
    <>
      {anchor.kind === 'TRUSTED_LIST' && (
        <Tooltip title={t('trustAnchors.refresh')}>
          <span>
            <IconButton
              aria-label={t('trustAnchors.refreshNamed', { name: anchor.name })}
              onClick={() => onRefresh(anchor)}
              disabled={refreshingId === anchor.id}
              data-testid={`trust-anchor-refresh-${anchor.id}`}
            >
              <RefreshOutlined fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      )}
      <Tooltip title={t('trustAnchors.delete')}>
        <IconButton
          aria-label={t('trustAnchors.deleteNamed', { name: anchor.name })}
          onClick={() => onDelete(anchor)}
          data-testid={`trust-anchor-delete-${anchor.id}`}
          sx={{ '&:hover': { color: 'error.main' } }}
        >
          <DeleteOutlineOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
    </>
  );
}
