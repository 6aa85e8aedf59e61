import { type CreateTrustAnchorRequest, TRUST_ANCHORS_MAX, type TrustAnchor } from '@cp/contracts';
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import AddOutlined from '@mui/icons-material/AddOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { useIdentity } from '../../../lib/identity-context.ts';
import { notify } from '../../../lib/notifications.ts';
import { useCreateTrustAnchor } from '../api/create-trust-anchor.ts';
import { useDeleteTrustAnchor } from '../api/delete-trust-anchor.ts';
import { useTrustAnchors } from '../api/find-trust-anchors.ts';
import { useRefreshTrustAnchor } from '../api/refresh-trust-anchor.ts';
import { TrustAnchorFormDialog } from './trust-anchor-form-dialog.tsx';
import { TrustAnchorsTable } from './trust-anchors-table.tsx';

/**
 * /trust-anchors: the certificate authorities and trusted lists whose certified issuers the organization's
 * verifications trust when their policy is "Issuers certified by my trust anchors". Effective for the next
 * presentation.
 */
export function TrustAnchorsPage() {
  const { t } = useTranslation();
  const { current } = useIdentity();
  const organizationId = current?.id ?? '';
  const anchors = useTrustAnchors(organizationId || undefined);
  const create = useCreateTrustAnchor(organizationId);
  const remove = useDeleteTrustAnchor(organizationId);
  const refresh = useRefreshTrustAnchor(organizationId);
  const [isAdding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<TrustAnchor | null>(null);
  const total = anchors.data?.total ?? 0;
  const isAtLimit = total >= TRUST_ANCHORS_MAX;

  const add = async (body: CreateTrustAnchorRequest) => {
    // A refusal rejects: the dialog shows why, on the field concerned, and keeps what was typed.
    await create.mutateAsync(body);
    setAdding(false);
    notify({ severity: 'success', title: t('trustAnchors.added', { name: body.name }) });
  };

  const readAgain = async (anchor: TrustAnchor) => {
    try {
      const answer = await refresh.mutateAsync(anchor.id);
      notify(
        answer.list_error
          ? { severity: 'warning', title: t('trustAnchors.listError', { error: answer.list_error }) }
          : { severity: 'success', title: t('trustAnchors.refreshed', { name: anchor.name }) },
      );
    } catch {
      notify({ severity: 'error', title: t('trustAnchors.errors.refresh') });
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      notify({ severity: 'success', title: t('trustAnchors.deleteDialog.deleted') });
    } catch {
      notify({ severity: 'error', title: t('trustAnchors.errors.delete') });
    } finally {
      setDeleting(null);
    }
  };

  const addButton = (
    <Tooltip title={isAtLimit ? t('trustAnchors.errors.limit') : ''}>
      <Box component="span" sx={{ flexShrink: 0 }}>
        <Button
          variant="contained"
          startIcon={<AddOutlined />}
          onClick={() => setAdding(true)}
          disabled={isAtLimit || !organizationId}
          data-testid="trust-anchor-add"
          sx={{ whiteSpace: 'nowrap' }}
        >
          {t('trustAnchors.add')}
        </Button>
      </Box>
    </Tooltip>
  );

  let content: React.ReactNode;
  if (!anchors.data) {
    content = anchors.isError ? (
      <Card
        sx={{ p: 3, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}
        data-testid="trust-anchors-error"
      >
        <Typography variant="body2" sx={{ color: 'error.main', flex: 1 }}>
          {t('trustAnchors.errors.load')}
        </Typography>
        <Button variant="outlined" color="secondary" onClick={() => void anchors.refetch()}>
          {t('trustAnchors.retry')}
        </Button>
      </Card>
    ) : (
      <Card sx={{ p: 2 }} data-testid="trust-anchors-loading">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={56} sx={{ mb: i < 2 ? 1.5 : 0 }} />
        ))}
      </Card>
    );
  } else if (anchors.data.total === 0) {
    content = (
      <Box data-testid="trust-anchors-empty">
        <EmptyState
          icon={<AccountTreeOutlined />}
          title={t('trustAnchors.emptyTitle')}
          body={t('trustAnchors.emptyBody')}
          action={addButton}
        />
      </Box>
    );
  } else {
    content = (
      <Card>
        <TrustAnchorsTable
          anchors={anchors.data.results}
          onDelete={setDeleting}
          onRefresh={(anchor) => void readAgain(anchor)}
          refreshingId={refresh.isPending ? (refresh.variables ?? null) : null}
        />
        <Box sx={{ px: 2, py: 1.5, borderTop: '1px solid', borderColor: 'divider' }}>
          <Typography
            variant="caption"
            sx={{ color: 'text.secondary', fontSize: 13 }}
            data-testid="trust-anchors-count"
          >
            {t('trustAnchors.count', { count: total, max: TRUST_ANCHORS_MAX })}
          </Typography>
        </Box>
      </Card>
    );
  }

  return (
    <>
      <PageHeader
        title={t('trustAnchors.title')}
        subtitle={t('trustAnchors.subtitle')}
        actions={anchors.data && anchors.data.total > 0 ? addButton : undefined}
      />
      {content}
      <TrustAnchorFormDialog open={isAdding} onClose={() => setAdding(false)} onSubmit={add} />
      <ConfirmDialog
        open={deleting !== null}
        title={t('trustAnchors.deleteDialog.title')}
        body={t('trustAnchors.deleteDialog.body', { name: deleting?.name ?? '' })}
        confirmLabel={t('trustAnchors.deleteDialog.confirm')}
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
        confirmTestId="trust-anchor-delete-confirm"
      />
    </>
  );
}
