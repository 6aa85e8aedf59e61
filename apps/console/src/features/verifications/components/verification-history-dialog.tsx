import type { IssuerTrust, Verification, VerificationIndividual } from '@cp/contracts';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import ErrorOutlineOutlined from '@mui/icons-material/ErrorOutlineOutlined';
import GppBadOutlined from '@mui/icons-material/GppBadOutlined';
import GppGoodOutlined from '@mui/icons-material/GppGoodOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import LabelOutlined from '@mui/icons-material/LabelOutlined';
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import { useTheme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Fragment, useId, useRef, useState } from 'react';
import { MobileFacts } from '../../../components/mobile-facts.tsx';
import { useScrollRegion } from '../../../components/scroll-region.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { useVerificationIndividuals } from '../api/find-verification-individuals.ts';
import { describeFailedCheck } from './check-messages.ts';
import { formatDateTime } from './format.ts';
import { anchorName, describeIssuerTrust } from './issuer-trust-messages.ts';
import { IndividualStatusChip } from './verification-status-chip.tsx';

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 } as const;

function claimText(value: unknown, yes: string, no: string): string {
  if (typeof value === 'boolean') return value ? yes : no;
  if (value === null || value === undefined) return '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The attempts of one verification, 10 per page, newest first (full screen on phones). */
export function VerificationHistoryDialog({
  organizationId,
  verification,
  onClose,
}: {
  organizationId: string;
  verification: Verification | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const history = useScrollRegion<HTMLDivElement>(t('verifications.history.title'));
  const [page, setPage] = useState(1);
  const [openedFor, setOpenedFor] = useState<string | null>(null);
  // Another verification's history starts at its first page.
  if ((verification?.id ?? null) !== openedFor) {
    setOpenedFor(verification?.id ?? null);
    setPage(1);
  }
  const shown = useRef<Verification | null>(null);
  if (verification) shown.current = verification;
  const current = shown.current;
  const individuals = useVerificationIndividuals(
    organizationId || undefined,
    current?.id ?? null,
    page,
    verification !== null,
  );
  const data = individuals.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;

  let content: React.ReactNode;
  if (!data) {
    content = individuals.isError ? (
      <Box sx={{ py: 3, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="body2" sx={{ color: 'error.main', flex: 1 }} data-testid="verification-history-error">
          {t('catalogue.getVerificationIndividuals')}
        </Typography>
        <Button variant="outlined" color="secondary" onClick={() => void individuals.refetch()}>
          {t('verifications.list.retry')}
        </Button>
      </Box>
    ) : (
      <Box sx={{ py: 1 }}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={72} sx={{ mb: 1.5 }} />
        ))}
      </Box>
    );
  } else if (data.total === 0) {
    content = (
      <Box sx={{ py: 6, textAlign: 'center' }} data-testid="verification-history-empty">
        <HistoryOutlined sx={{ fontSize: 40, color: 'text.disabled' }} />
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }}>
          {t('verifications.history.empty')}
        </Typography>
      </Box>
    );
  } else {
    content = (
      <>
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }} data-testid="verification-history-list">
          {data.results.map((individual, index) => (
            <Fragment key={individual.id}>
              {index > 0 && <Divider component="li" aria-hidden />}
              <IndividualItem individual={individual} />
            </Fragment>
          ))}
        </Box>
        {pageCount > 1 && (
          <Box sx={{ display: 'flex', justifyContent: 'center', pt: 2 }}>
            <Pagination
              count={pageCount}
              page={Math.min(page, pageCount)}
              onChange={(_, next) => setPage(next)}
              shape="rounded"
              size="small"
              aria-label={t('verifications.history.pagination')}
              data-testid="verification-history-pagination"
            />
          </Box>
        )}
      </>
    );
  }

  return (
    <Dialog
      open={verification !== null}
      onClose={onClose}
      fullScreen={fullScreen}
      fullWidth
      maxWidth="md"
      aria-labelledby={titleId}
    >
      <DialogTitle id={titleId} sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, pr: 1.5 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="h4" component="span" sx={{ display: 'block' }}>
            {t('verifications.history.title')}
          </Typography>
          <Typography variant="body2" component="span" sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}>
            {current?.name}
            {data ? ` · ${t('verifications.history.count', { count: data.total })}` : ''}
          </Typography>
        </Box>
        <IconButton aria-label={t('common.close')} onClick={onClose} sx={{ mt: -0.5 }}>
          <CloseOutlined />
        </IconButton>
      </DialogTitle>
      {/* A long history scrolls: while it does, the keyboard can reach and scroll it. */}
      <DialogContent dividers data-testid="verification-history" ref={history.ref} {...history.props}>
        {content}
      </DialogContent>
    </Dialog>
  );
}

function IndividualItem({ individual }: { individual: VerificationIndividual }) {
  const { t, i18n } = useTranslation();
  const claims = Object.entries(individual.presented_claims);
  const failed = individual.status === 'FAILED' ? individual.checks.filter((check) => !check.passed) : [];
  const yes = t('verifications.form.true');
  const no = t('verifications.form.false');
  return (
    <Box component="li" sx={{ py: 2 }} data-testid={`individual-${individual.id}`}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {t('verifications.history.customer')}
        </Typography>
        <Box component="code" sx={{ ...mono, overflowWrap: 'anywhere' }} data-testid="individual-customer">
          {individual.customer_id}
        </Box>
        <CustomerChip individual={individual} />
        <IndividualStatusChip status={individual.status} testId={`individual-status-${individual.id}`} />
        <Typography variant="body2" sx={{ color: 'text.secondary', ml: { sm: 'auto' }, whiteSpace: 'nowrap' }}>
          {formatDateTime(individual.verified_at ?? individual.created_at, i18n.language)}
        </Typography>
      </Box>
      {claims.length > 0 && (
        <Box
          component="dl"
          data-testid={`individual-claims-${individual.id}`}
          aria-label={t('verifications.history.claims')}
          sx={{
            m: 0,
            mt: 1,
            display: 'grid',
            gridTemplateColumns: 'auto minmax(0, 1fr)',
            columnGap: 2,
            rowGap: 0.25,
            '& dt': { color: 'text.secondary', typography: 'body2' },
            '& dd': { m: 0, typography: 'body2', minWidth: 0, overflowWrap: 'anywhere' },
          }}
        >
          {claims.map(([name, value]) => (
            <Fragment key={name}>
              <dt>{name}</dt>
              <dd>{claimText(value, yes, no)}</dd>
            </Fragment>
          ))}
        </Box>
      )}
      {individual.issuer_trust && <IssuerTrustPanel individual={individual} trust={individual.issuer_trust} />}
      {individual.status === 'FAILED' && (
        <Box
          sx={{ mt: 1.5, p: 1.5, borderRadius: 2, bgcolor: 'error.50', border: '1px solid', borderColor: 'error.200' }}
          data-testid={`individual-failures-${individual.id}`}
        >
          <Typography variant="subtitle2" sx={{ color: 'error.dark', mb: 0.5 }}>
            {t('verifications.history.failedChecks')}
          </Typography>
          <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 0.5 }}>
            {(failed.length > 0
              ? failed.map((check) => describeFailedCheck(t, check))
              : [t('verifications.checks.unknown')]
            ).map((message, index) => (
              <Box
                component="li"
                // biome-ignore lint/suspicious/noArrayIndexKey: the messages of one attempt never reorder
                key={index}
                sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}
              >
                <ErrorOutlineOutlined sx={{ fontSize: 18, color: 'error.main', mt: '1px' }} />
                <Typography variant="body2">{message}</Typography>
              </Box>
            ))}
          </Box>
        </Box>
      )}
    </Box>
  );
}

/** Whether the integrator vouched for the customer id (its API key, or a link it signed), or it is just a label. */
function CustomerChip({ individual }: { individual: VerificationIndividual }) {
  const { t } = useTranslation();
  const verified = individual.customer_verified;
  return (
    <Tooltip
      title={t(verified ? 'verifications.history.customerVerifiedHint' : 'verifications.history.customerLabelHint')}
    >
      <Chip
        size="small"
        variant="outlined"
        color={verified ? 'success' : 'default'}
        icon={verified ? <VerifiedUserOutlined /> : <LabelOutlined />}
        label={t(verified ? 'verifications.history.customerVerified' : 'verifications.history.customerLabel')}
        data-testid={`individual-customer-verified-${individual.id}`}
        data-verified={verified}
        sx={{ height: 22, fontSize: 12, '& .MuiChip-icon': { fontSize: 14 } }}
      />
    </Tooltip>
  );
}

const KEY_SOURCES: Record<IssuerTrust['key_source'], string> = {
  x5c: 'verifications.trust.keySources.x5c',
  did: 'verifications.trust.keySources.did',
  metadata: 'verifications.trust.keySources.metadata',
};

/**
 * Why the issuer was admitted or refused: the reason in words, then how its key was established (certificate
 * chain up to an anchor, DID document, issuer metadata) and the platform organization it is, if any.
 */
function IssuerTrustPanel({ individual, trust }: { individual: VerificationIndividual; trust: IssuerTrust }) {
  const { t } = useTranslation();
  const admitted = trust.admitted;
  const anchor = trust.certificate?.anchor;
  const tone = admitted ? 'success' : 'error';
  return (
    <Box
      data-testid={`individual-trust-${individual.id}`}
      data-admitted={admitted}
      sx={{
        mt: 1.5,
        p: 1.5,
        borderRadius: 2,
        bgcolor: admitted ? 'grey.50' : `${tone}.50`,
        border: '1px solid',
        borderColor: admitted ? 'divider' : `${tone}.200`,
      }}
    >
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
        {admitted ? (
          <GppGoodOutlined sx={{ fontSize: 20, color: 'success.main', mt: '1px' }} />
        ) : (
          <GppBadOutlined sx={{ fontSize: 20, color: 'error.main', mt: '1px' }} />
        )}
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="subtitle2" sx={{ color: admitted ? 'success.dark' : 'error.dark' }}>
            {t(admitted ? 'verifications.trust.admittedTitle' : 'verifications.trust.refusedTitle')}
          </Typography>
          <Typography
            variant="body2"
            sx={{ overflowWrap: 'anywhere' }}
            data-testid={`individual-trust-reason-${individual.id}`}
          >
            {describeIssuerTrust(t, trust, individual.issuer)}
          </Typography>
        </Box>
      </Box>
      <MobileFacts sx={{ ml: { sm: 3.5 }, rowGap: 0.25, alignItems: 'normal' }}>
        {individual.issuer && (
          <>
            <dt>{t('verifications.trust.issuer')}</dt>
            <dd>
              <Box component="code" sx={mono}>
                {individual.issuer}
              </Box>
            </dd>
          </>
        )}
        <dt>{t('verifications.trust.key')}</dt>
        <dd data-testid={`individual-trust-key-${individual.id}`}>
          {t(KEY_SOURCES[trust.key_source])}
          {trust.certificate && (
            <Box component="span" sx={{ color: 'text.secondary' }}>
              {' · '}
              {trust.certificate.subject}
            </Box>
          )}
        </dd>
        {anchor && (
          <>
            <dt>{t('verifications.trust.anchor')}</dt>
            <dd data-testid={`individual-trust-anchor-${individual.id}`}>{anchorName(t, anchor)}</dd>
          </>
        )}
        {trust.organization && (
          <>
            <dt>{t('verifications.trust.organization')}</dt>
            <dd data-testid={`individual-trust-organization-${individual.id}`}>
              {trust.organization.name}
              <Box component="span" sx={{ color: trust.organization.verified ? 'success.dark' : 'text.secondary' }}>
                {' · '}
                {t(
                  trust.organization.verified
                    ? 'verifications.trust.organizationVerified'
                    : 'verifications.trust.organizationNotVerified',
                )}
              </Box>
            </dd>
          </>
        )}
        <dt>{t('verifications.trust.policy')}</dt>
        <dd>{t(`verifications.trustPolicies.${trust.policy}`)}</dd>
      </MobileFacts>
    </Box>
  );
}
