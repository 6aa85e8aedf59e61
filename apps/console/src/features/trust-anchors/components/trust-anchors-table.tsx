import type { TrustAnchor } from '@cp/contracts';
import ErrorOutlineOutlined from '@mui/icons-material/ErrorOutlineOutlined';
import RefreshOutlined from '@mui/icons-material/RefreshOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  CertificateDeleteAction,
  CertificateExpiry,
  CertificateFingerprint,
  CertificateMobileItem,
  CertificateName,
  CertificateSubject,
  useFormatDate,
} from '../../../components/certificate-list.tsx';
import { ResponsiveTable, type ResponsiveTableColumn } from '../../../components/responsive-table.tsx';
import { useTranslation } from '../../../i18n/index.ts';

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 12 } as const;
const names = { ns: 'trustAnchors', testId: 'trust-anchor' } as const;

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
      cell: (anchor) => <CertificateSubject {...names} row={anchor} subject={anchor.subject} />,
      sx: { maxWidth: 240 },
    },
    {
      id: 'fingerprint',
      header: t('trustAnchors.columns.fingerprint'),
      cell: (anchor) => <CertificateFingerprint {...names} row={anchor} fingerprint={anchor.fingerprint} />,
      sx: { whiteSpace: 'nowrap' },
    },
    {
      id: 'expires',
      header: t('trustAnchors.columns.expires'),
      cell: (anchor) => <CertificateExpiry {...names} row={anchor} notAfter={anchor.not_after} now={now} />,
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
        <CertificateMobileItem
          name={<NameCell anchor={anchor} />}
          actions={<RowActions anchor={anchor} {...actions} />}
        >
          <dt>{t('trustAnchors.columns.subject')}</dt>
          <dd>
            <CertificateSubject {...names} row={anchor} subject={anchor.subject} />
          </dd>
          <dt>{t('trustAnchors.columns.fingerprint')}</dt>
          <dd>
            <CertificateFingerprint {...names} row={anchor} fingerprint={anchor.fingerprint} />
          </dd>
          <dt>{t('trustAnchors.columns.expires')}</dt>
          <dd>
            <CertificateExpiry {...names} row={anchor} notAfter={anchor.not_after} now={now} />
          </dd>
          {anchor.kind === 'TRUSTED_LIST' && (
            <>
              <dt>{t('trustAnchors.columns.status')}</dt>
              <dd>
                <ListStatus anchor={anchor} />
              </dd>
            </>
          )}
        </CertificateMobileItem>
      )}
    />
  );
}

function NameCell({ anchor }: { anchor: TrustAnchor }) {
  return (
    <CertificateName {...names} row={anchor} kind={anchor.kind} highlighted={anchor.kind === 'TRUSTED_LIST'}>
      {anchor.list_url && (
        <Box
          component="code"
          sx={{ ...mono, display: 'block', color: 'text.secondary', mt: 0.25, overflowWrap: 'anywhere' }}
        >
          {anchor.list_url}
        </Box>
      )}
    </CertificateName>
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
      <CertificateDeleteAction {...names} row={anchor} onDelete={onDelete} />
    </>
  );
}
