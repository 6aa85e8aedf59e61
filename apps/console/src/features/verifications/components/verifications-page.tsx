import type { Verification, VerificationType } from '@cp/contracts';
import AddOutlined from '@mui/icons-material/AddOutlined';
import FactCheckOutlined from '@mui/icons-material/FactCheckOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { RouterLink } from '../../../components/router-link.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { useIdentity } from '../../../lib/identity-context.ts';
import { notify } from '../../../lib/notifications.ts';
import { useSearchParams } from '../../../lib/use-search-params.ts';
import { useDeleteVerification } from '../api/delete-verification.ts';
import { refreshVerificationLists, useVerifications } from '../api/find-verifications.ts';
import { absoluteLink } from './format.ts';
import { VerificationHistoryDialog } from './verification-history-dialog.tsx';
import { VerificationQrDialog } from './verification-qr-dialog.tsx';
import { type VerificationActions, VerificationsTable } from './verifications-table.tsx';

/** The tab and each list's page live in the address: `?tab=single&single=2&reusable=1`. */
const TAB_PARAM: Record<VerificationType, string> = { MULTI: 'reusable', SINGLE: 'single' };

const pageFrom = (value: string | null) => {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
};

/**
 * /verifications: the reusable and the single-use verifications, both loaded together (page 1, 10 each, spec
 * §2), as two tabs with their own pages.
 */
export function VerificationsPage() {
  const { t } = useTranslation();
  const { current } = useIdentity();
  const organizationId = current?.id ?? '';
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: VerificationType = searchParams.get('tab') === TAB_PARAM.SINGLE ? 'SINGLE' : 'MULTI';
  const pages: Record<VerificationType, number> = {
    MULTI: pageFrom(searchParams.get(TAB_PARAM.MULTI)),
    SINGLE: pageFrom(searchParams.get(TAB_PARAM.SINGLE)),
  };
  // Two queries side by side: react-query starts both at once.
  const lists = {
    MULTI: useVerifications(organizationId || undefined, 'MULTI', pages.MULTI),
    SINGLE: useVerifications(organizationId || undefined, 'SINGLE', pages.SINGLE),
  };
  const remove = useDeleteVerification(organizationId);
  const queryClient = useQueryClient();
  const [qrFor, setQrFor] = useState<Verification | null>(null);
  const [historyFor, setHistoryFor] = useState<Verification | null>(null);
  // A QR code shown or a history read is when holders' attempts are likely to have moved the counts.
  const closeQr = () => {
    setQrFor(null);
    void refreshVerificationLists(queryClient, organizationId);
  };
  const closeHistory = () => {
    setHistoryFor(null);
    void refreshVerificationLists(queryClient, organizationId);
  };
  const [deleting, setDeleting] = useState<Verification | null>(null);

  const setParams = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(searchParams);
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    setSearchParams(next);
  };
  const goTo = (type: VerificationType, page: number) =>
    setParams({ [TAB_PARAM[type]]: page > 1 ? String(page) : null });

  const copyLink = async (verification: Verification) => {
    const link = absoluteLink(verification.link);
    try {
      await navigator.clipboard.writeText(link);
      notify({ severity: 'success', title: t('verifications.list.linkCopied') });
    } catch {
      // Where the clipboard is refused (insecure origin), the link is shown instead.
      notify({ severity: 'info', title: link });
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const type = deleting.type;
    try {
      await remove.mutateAsync(deleting.id);
      notify({ severity: 'success', title: t('verifications.deleteDialog.deleted') });
      // The last row of a page gone: show the page before it.
      const data = lists[type].data;
      if (data && data.results.length === 1 && pages[type] > 1) goTo(type, pages[type] - 1);
    } catch {
      notify({ severity: 'error', title: t('verifications.list.deleteFailed') });
    } finally {
      setDeleting(null);
    }
  };

  const actions: VerificationActions = {
    onCopyLink: (verification) => void copyLink(verification),
    onShowQr: setQrFor,
    onHistory: setHistoryFor,
    onDelete: setDeleting,
  };

  const createButton = (
    <Button
      variant="contained"
      component={RouterLink}
      to="/verifications/create"
      startIcon={<AddOutlined />}
      data-testid="verifications-create-button"
    >
      {t('verifications.list.create')}
    </Button>
  );

  const multi = lists.MULTI.data;
  const single = lists.SINGLE.data;
  const bothEmpty = multi?.total === 0 && single?.total === 0;

  const panel = (type: VerificationType): ReactNode => {
    const query = lists[type];
    const data = query.data;
    if (!data) {
      return query.isError ? (
        <Box
          sx={{ p: 3, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}
          data-testid="verifications-error"
        >
          <Typography variant="body2" sx={{ color: 'error.main', flex: 1 }}>
            {t('catalogue.getVerifications')}
          </Typography>
          <Button variant="outlined" color="secondary" onClick={() => void query.refetch()}>
            {t('verifications.list.retry')}
          </Button>
        </Box>
      ) : (
        <Box sx={{ p: 3 }} data-testid="verifications-loading">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} variant="rounded" height={44} sx={{ mb: 1.5 }} />
          ))}
        </Box>
      );
    }
    if (data.total === 0) {
      return (
        <Box sx={{ px: 3, py: 6, textAlign: 'center' }} data-testid={`verifications-tab-empty-${type}`}>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
            {t(`verifications.list.tabEmpty.${type}`)}
          </Typography>
          <Button variant="outlined" component={RouterLink} to={`/verifications/create?type=${type}`}>
            {t('verifications.list.create')}
          </Button>
        </Box>
      );
    }
    const pageCount = Math.max(1, Math.ceil(data.total / data.limit));
    return (
      <>
        <VerificationsTable type={type} verifications={data.results} {...actions} />
        {pageCount > 1 && (
          <Box
            sx={{ display: 'flex', justifyContent: 'center', py: 2, borderTop: '1px solid', borderColor: 'divider' }}
          >
            <Pagination
              count={pageCount}
              page={Math.min(pages[type], pageCount)}
              onChange={(_, next) => goTo(type, next)}
              shape="rounded"
              aria-label={t(`verifications.list.pagination.${type}`)}
              data-testid={`verifications-pagination-${type}`}
            />
          </Box>
        )}
      </>
    );
  };

  const tabLabel = (type: VerificationType) => {
    const total = lists[type].data?.total;
    const label = t(type === 'MULTI' ? 'verifications.types.MULTI' : 'verifications.types.SINGLE');
    return (
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
        {label}
        {total !== undefined && (
          <Box
            component="span"
            sx={{
              px: 1,
              borderRadius: 8,
              fontSize: 12,
              lineHeight: '20px',
              bgcolor: tab === type ? 'primary.50' : 'grey.100',
              color: tab === type ? 'primary.700' : 'text.secondary',
            }}
          >
            {total}
          </Box>
        )}
      </Box>
    );
  };

  return (
    <>
      <PageHeader
        title={t('verifications.list.title')}
        subtitle={t('verifications.list.subtitle')}
        actions={bothEmpty ? undefined : createButton}
      />
      {bothEmpty ? (
        <Box data-testid="verifications-empty">
          <EmptyState
            icon={<FactCheckOutlined />}
            title={t('verifications.list.emptyTitle')}
            body={t('verifications.list.emptyBody')}
            action={createButton}
          />
        </Box>
      ) : (
        <Card>
          <Box sx={{ borderBottom: '1px solid', borderColor: 'divider' }}>
            <Tabs
              value={tab}
              onChange={(_, next: VerificationType) => setParams({ tab: next === 'SINGLE' ? TAB_PARAM.SINGLE : null })}
              variant="fullWidth"
              sx={{ maxWidth: { sm: 420 } }}
              aria-label={t('verifications.list.tabs')}
            >
              {(['MULTI', 'SINGLE'] as const).map((type) => (
                <Tab
                  key={type}
                  value={type}
                  label={tabLabel(type)}
                  id={`verifications-tab-${type}`}
                  aria-controls={`verifications-panel-${type}`}
                  data-testid={`verifications-tab-${type}`}
                  sx={{ textTransform: 'none', fontWeight: 600 }}
                />
              ))}
            </Tabs>
          </Box>
          <Box role="tabpanel" id={`verifications-panel-${tab}`} aria-labelledby={`verifications-tab-${tab}`}>
            {panel(tab)}
          </Box>
        </Card>
      )}
      <VerificationQrDialog
        organizationId={organizationId}
        verification={qrFor}
        onCopy={actions.onCopyLink}
        onClose={closeQr}
      />
      <VerificationHistoryDialog organizationId={organizationId} verification={historyFor} onClose={closeHistory} />
      <ConfirmDialog
        open={deleting !== null}
        title={t('verifications.deleteDialog.title')}
        body={t('verifications.deleteDialog.body', { name: deleting?.name ?? '' })}
        confirmLabel={t('verifications.deleteDialog.confirm')}
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
        confirmTestId="verification-delete-confirm"
      />
    </>
  );
}
