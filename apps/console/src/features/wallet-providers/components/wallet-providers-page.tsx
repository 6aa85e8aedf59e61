import { type CreateWalletProviderRequest, WALLET_PROVIDERS_MAX, type WalletProvider } from '@cp/contracts';
import AddOutlined from '@mui/icons-material/AddOutlined';
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';
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
import { useCreateWalletProvider } from '../api/create-wallet-provider.ts';
import { useDeleteWalletProvider } from '../api/delete-wallet-provider.ts';
import { useWalletProviders } from '../api/find-wallet-providers.ts';
import { WalletProviderFormDialog } from './wallet-provider-form-dialog.tsx';
import { WalletProvidersTable } from './wallet-providers-table.tsx';

/**
 * /wallet-providers: the wallet providers whose wallet attestations and key attestations the organization's
 * issuer trusts (an attestation signed by one of these certificates or under one of these CAs). Required of every
 * wallet when the issuer policy says so; effective for the next token request.
 */
export function WalletProvidersPage() {
  const { t } = useTranslation();
  const { current } = useIdentity();
  const organizationId = current?.id ?? '';
  const providers = useWalletProviders(organizationId || undefined);
  const create = useCreateWalletProvider(organizationId);
  const remove = useDeleteWalletProvider(organizationId);
  const [isAdding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<WalletProvider | null>(null);
  const total = providers.data?.total ?? 0;
  const isAtLimit = total >= WALLET_PROVIDERS_MAX;

  const add = async (body: CreateWalletProviderRequest) => {
    // A refusal rejects: the dialog shows why and keeps what was typed.
    await create.mutateAsync(body);
    setAdding(false);
    notify({ severity: 'success', title: t('walletProviders.added', { name: body.name }) });
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      notify({ severity: 'success', title: t('walletProviders.deleteDialog.deleted') });
    } catch {
      notify({ severity: 'error', title: t('walletProviders.errors.delete') });
    } finally {
      setDeleting(null);
    }
  };

  const addButton = (
    <Tooltip title={isAtLimit ? t('walletProviders.errors.limit') : ''}>
      <Box component="span" sx={{ flexShrink: 0 }}>
        <Button
          variant="contained"
          startIcon={<AddOutlined />}
          onClick={() => setAdding(true)}
          disabled={isAtLimit || !organizationId}
          data-testid="wallet-provider-add"
          sx={{ whiteSpace: 'nowrap' }}
        >
          {t('walletProviders.add')}
        </Button>
      </Box>
    </Tooltip>
  );

  let content: React.ReactNode;
  if (!providers.data) {
    content = providers.isError ? (
      <Card
        sx={{ p: 3, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}
        data-testid="wallet-providers-error"
      >
        <Typography variant="body2" sx={{ color: 'error.main', flex: 1 }}>
          {t('walletProviders.errors.load')}
        </Typography>
        <Button variant="outlined" color="secondary" onClick={() => void providers.refetch()}>
          {t('walletProviders.retry')}
        </Button>
      </Card>
    ) : (
      <Card sx={{ p: 2 }} data-testid="wallet-providers-loading">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={56} sx={{ mb: i < 2 ? 1.5 : 0 }} />
        ))}
      </Card>
    );
  } else if (providers.data.total === 0) {
    content = (
      <Box data-testid="wallet-providers-empty">
        <EmptyState
          icon={<VerifiedUserOutlined />}
          title={t('walletProviders.emptyTitle')}
          body={t('walletProviders.emptyBody')}
          action={addButton}
        />
      </Box>
    );
  } else {
    content = (
      <Card>
        <WalletProvidersTable providers={providers.data.results} onDelete={setDeleting} />
        <Box sx={{ px: 2, py: 1.5, borderTop: '1px solid', borderColor: 'divider' }}>
          <Typography
            variant="caption"
            sx={{ color: 'text.secondary', fontSize: 13 }}
            data-testid="wallet-providers-count"
          >
            {t('walletProviders.count', { count: total, max: WALLET_PROVIDERS_MAX })}
          </Typography>
        </Box>
      </Card>
    );
  }

  return (
    <>
      <PageHeader
        title={t('walletProviders.title')}
        subtitle={t('walletProviders.subtitle')}
        actions={providers.data && providers.data.total > 0 ? addButton : undefined}
      />
      {content}
      <WalletProviderFormDialog open={isAdding} onClose={() => setAdding(false)} onSubmit={add} />
      <ConfirmDialog
        open={deleting !== null}
        title={t('walletProviders.deleteDialog.title')}
        body={t('walletProviders.deleteDialog.body', { name: deleting?.name ?? '' })}
        confirmLabel={t('walletProviders.deleteDialog.confirm')}
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
        confirmTestId="wallet-provider-delete-confirm"
      />
    </>
  );
}
