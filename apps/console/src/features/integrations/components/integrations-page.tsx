import type { ApiKey, CreatedApiKey } from '@cp/contracts';
import AddOutlined from '@mui/icons-material/AddOutlined';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Skeleton from '@mui/material/Skeleton';
import { useEffect, useState } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { useIdentity } from '../../../lib/identity-context.ts';
import { notify } from '../../../lib/notifications.ts';
import { useCreateApiKey } from '../api/create-api-key.ts';
import { useDeleteApiKey } from '../api/delete-api-key.ts';
import { useApiKeys } from '../api/find-api-keys.ts';
import { useUpdateApiKey } from '../api/update-api-key.ts';
import { ApiKeyNameDialog } from './api-key-name-dialog.tsx';
import { ApiKeySecretDialog } from './api-key-secret-dialog.tsx';
import { ApiKeysTable } from './api-keys-table.tsx';
import { ApiUsagePanel } from './api-usage-panel.tsx';
import { DeleteApiKeyDialog } from './delete-api-key-dialog.tsx';
import { WebhooksPanel } from './webhooks-panel.tsx';

/** Spec §9: pages of 10, starting at 1. */
export const API_KEYS_PAGE_SIZE = 10;

type NameDialog = { mode: 'create' } | { mode: 'rename'; apiKey: ApiKey } | null;

/** /integrations: the organization's API keys (spec §2: list, page 1 of 10). */
export function IntegrationsPage() {
  const { t } = useTranslation();
  const { current } = useIdentity();
  const [page, setPage] = useState(1);
  const keys = useApiKeys(current?.id, page, API_KEYS_PAGE_SIZE);
  const create = useCreateApiKey();
  const update = useUpdateApiKey();
  const remove = useDeleteApiKey();
  const [nameDialog, setNameDialog] = useState<NameDialog>(null);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: another organization starts on its first page.
  useEffect(() => setPage(1), [current?.id]);

  useEffect(() => {
    if (keys.isError) notify({ severity: 'error', title: t('catalogue.getIntegrations') });
  }, [keys.isError, t]);

  // Deleting the last key of a later page leaves it empty: step back to the last page that has keys.
  const total = keys.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / API_KEYS_PAGE_SIZE));
  useEffect(() => {
    if (keys.data && page > lastPage) setPage(lastPage);
  }, [keys.data, page, lastPage]);

  const saveName = async (name: string) => {
    if (!nameDialog) return;
    try {
      if (nameDialog.mode === 'create') {
        const answer = await create.mutateAsync({ name });
        setNameDialog(null);
        setPage(1);
        setCreated(answer);
      } else {
        await update.mutateAsync({ id: nameDialog.apiKey.id, name });
        setNameDialog(null);
        notify({ severity: 'success', title: t('integrations.renamed') });
      }
    } catch (error) {
      notify({ severity: 'error', title: t('catalogue.saveIntegration') });
      throw error;
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      notify({ severity: 'success', title: t('integrations.deleted') });
    } catch {
      notify({ severity: 'error', title: t('catalogue.deleteIntegration') });
    } finally {
      setDeleting(null);
    }
  };

  const addButton = (testId: string) => (
    <Button
      variant="contained"
      startIcon={<AddOutlined />}
      onClick={() => setNameDialog({ mode: 'create' })}
      data-testid={testId}
      sx={{ flexShrink: 0 }}
    >
      {t('integrations.add')}
    </Button>
  );
  const results = keys.data?.results ?? [];
  const newest = results[0];

  return (
    <>
      <PageHeader
        title={t('integrations.title')}
        subtitle={t('integrations.subtitle')}
        actions={addButton('integration-add-button')}
      />
      {keys.isPending ? (
        <Card sx={{ p: 3 }} data-testid="integrations-loading">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} variant="rounded" height={40} sx={{ mt: row ? 1.5 : 0 }} />
          ))}
        </Card>
      ) : keys.isError ? (
        <EmptyState
          icon={<KeyOutlined />}
          title={t('catalogue.getIntegrations')}
          body={t('integrations.loadFailedBody')}
          action={
            <Button variant="outlined" color="secondary" onClick={() => void keys.refetch()}>
              {t('integrations.retry')}
            </Button>
          }
        />
      ) : total === 0 ? (
        <div data-testid="integrations-empty">
          <EmptyState
            icon={<KeyOutlined />}
            title={t('integrations.emptyTitle')}
            body={t('integrations.emptyBody')}
            action={addButton('integration-add-empty')}
          />
        </div>
      ) : (
        <>
          <ApiKeysTable
            apiKeys={results}
            total={total}
            page={page}
            pageSize={API_KEYS_PAGE_SIZE}
            onPageChange={setPage}
            onRename={(apiKey) => setNameDialog({ mode: 'rename', apiKey })}
            onDelete={setDeleting}
          />
          {newest && <ApiUsagePanel baseUrl={newest.base_url} keyId={newest.key} />}
        </>
      )}
      <WebhooksPanel />
      {nameDialog && (
        <ApiKeyNameDialog
          open
          mode={nameDialog.mode}
          initialName={nameDialog.mode === 'rename' ? nameDialog.apiKey.name : ''}
          onClose={() => setNameDialog(null)}
          onSubmit={saveName}
        />
      )}
      <ApiKeySecretDialog apiKey={created} onClose={() => setCreated(null)} />
      <DeleteApiKeyDialog
        name={deleting?.name ?? null}
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      />
    </>
  );
}
