import { type CreatedWebhook, type CreateWebhookRequest, WEBHOOK_ENDPOINTS_MAX, type Webhook } from '@cp/contracts';
import AddOutlined from '@mui/icons-material/AddOutlined';
import WebhookOutlined from '@mui/icons-material/WebhookOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { useIdentity } from '../../../lib/identity-context.ts';
import { notify } from '../../../lib/notifications.ts';
import { problemMessage } from '../../../lib/problem-messages.ts';
import { useCreateWebhook } from '../api/create-webhook.ts';
import { useDeleteWebhook } from '../api/delete-webhook.ts';
import { useWebhooks } from '../api/find-webhooks.ts';
import { useSendWebhookTest } from '../api/send-webhook-test.ts';
import { useUpdateWebhook } from '../api/update-webhook.ts';
import { DeleteWebhookDialog } from './delete-webhook-dialog.tsx';
import { WebhookDeliveriesDialog } from './webhook-deliveries-dialog.tsx';
import { WebhookFormDialog } from './webhook-form-dialog.tsx';
import { WebhookSecretDialog } from './webhook-secret-dialog.tsx';
import { WebhooksTable } from './webhooks-table.tsx';

/** Spec §9: pages of 10, starting at 1. */
export const WEBHOOKS_PAGE_SIZE = 10;

/**
 * Webhooks on the Integrations page: endpoints that receive signed events (Standard Webhooks), each with
 * an on/off switch, a test event and its delivery log.
 */
export function WebhooksPanel() {
  const { t } = useTranslation();
  const { current } = useIdentity();
  const [page, setPage] = useState(1);
  const webhooks = useWebhooks(current?.id, page, WEBHOOKS_PAGE_SIZE);
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const sendTest = useSendWebhookTest();
  const [formOpen, setFormOpen] = useState(false);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [viewing, setViewing] = useState<Webhook | null>(null);
  const [pendingEnabled, setPendingEnabled] = useState<{ id: string; enabled: boolean } | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: another organization starts on its first page.
  useEffect(() => setPage(1), [current?.id]);

  const total = webhooks.data?.total ?? 0;
  const results = webhooks.data?.results ?? [];
  const pages = Math.ceil(total / WEBHOOKS_PAGE_SIZE);
  const lastPage = Math.max(1, pages);
  // Deleting the last endpoint of a later page leaves it empty: step back to the last page that has some.
  useEffect(() => {
    if (webhooks.data && page > lastPage) setPage(lastPage);
  }, [webhooks.data, page, lastPage]);
  const atLimit = total >= WEBHOOK_ENDPOINTS_MAX;

  const save = async (body: CreateWebhookRequest) => {
    try {
      const answer = await create.mutateAsync(body);
      setFormOpen(false);
      setPage(1);
      setCreated(answer);
    } catch (error) {
      notify({
        severity: 'error',
        title: problemMessage(t, error, 'catalogue.saveIntegration', { count: WEBHOOK_ENDPOINTS_MAX }),
      });
      throw error;
    }
  };

  const toggle = async (webhook: Webhook, enabled: boolean) => {
    setPendingEnabled({ id: webhook.id, enabled });
    try {
      await update.mutateAsync({ id: webhook.id, enabled });
      notify({
        severity: 'success',
        title: enabled ? t('integrations.webhooks.enabledNotice') : t('integrations.webhooks.disabledNotice'),
      });
    } catch {
      notify({ severity: 'error', title: t('catalogue.saveIntegration') });
    } finally {
      setPendingEnabled(null);
    }
  };

  const test = async (webhook: Webhook) => {
    try {
      await sendTest.mutateAsync(webhook.id);
      notify({ severity: 'success', title: t('integrations.webhooks.testQueued') });
    } catch (error) {
      notify({ severity: 'error', title: problemMessage(t, error, 'integrations.webhooks.errors.test') });
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      notify({ severity: 'success', title: t('integrations.webhooks.deleted') });
    } catch {
      notify({ severity: 'error', title: t('catalogue.deleteIntegration') });
    } finally {
      setDeleting(null);
    }
  };

  let content: ReactNode;
  if (webhooks.isPending) {
    content = (
      <Box sx={{ p: { xs: 2, md: 3 } }} data-testid="webhooks-loading">
        {[0, 1].map((row) => (
          <Skeleton key={row} variant="rounded" height={40} sx={{ mt: row ? 1.5 : 0 }} />
        ))}
      </Box>
    );
  } else if (webhooks.isError) {
    content = (
      <Box sx={{ p: { xs: 2, md: 3 }, textAlign: 'center' }} role="alert">
        <Typography variant="body2" sx={{ color: 'error.main' }}>
          {t('catalogue.getIntegrations')}
        </Typography>
        <Button
          variant="outlined"
          color="secondary"
          size="small"
          sx={{ mt: 1.5 }}
          onClick={() => void webhooks.refetch()}
        >
          {t('integrations.retry')}
        </Button>
      </Box>
    );
  } else if (total === 0) {
    content = (
      <Box sx={{ px: { xs: 2, md: 3 }, py: 4, textAlign: 'center' }} data-testid="webhooks-empty">
        <Typography variant="subtitle2">{t('integrations.webhooks.emptyTitle')}</Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5, maxWidth: 460, mx: 'auto' }}>
          {t('integrations.webhooks.emptyBody')}
        </Typography>
      </Box>
    );
  } else {
    content = (
      <>
        <WebhooksTable
          webhooks={results}
          pendingEnabled={pendingEnabled}
          testingId={sendTest.isPending ? (sendTest.variables ?? null) : null}
          onToggle={(webhook, enabled) => void toggle(webhook, enabled)}
          onShowDeliveries={setViewing}
          onSendTest={(webhook) => void test(webhook)}
          onDelete={setDeleting}
        />
        {pages > 1 && (
          <>
            <Divider />
            <Box sx={{ px: { xs: 2, md: 3 }, py: 1.5, display: 'flex', justifyContent: 'flex-end' }}>
              <Pagination
                count={pages}
                page={page}
                onChange={(_, value) => setPage(value)}
                shape="rounded"
                size="small"
                data-testid="webhooks-pagination"
              />
            </Box>
          </>
        )}
      </>
    );
  }

  return (
    <Card sx={{ mt: 3 }} data-testid="webhooks-panel">
      <Box
        sx={{
          p: { xs: 2.5, md: 3 },
          display: 'flex',
          alignItems: { xs: 'stretch', sm: 'flex-start' },
          flexDirection: { xs: 'column', sm: 'row' },
          justifyContent: 'space-between',
          gap: 2,
        }}
      >
        <Box sx={{ display: 'flex', gap: 1.5, minWidth: 0 }}>
          <Box
            sx={{
              width: 40,
              height: 40,
              flexShrink: 0,
              borderRadius: '50%',
              display: 'grid',
              placeItems: 'center',
              bgcolor: 'primary.50',
              color: 'primary.main',
            }}
          >
            <WebhookOutlined fontSize="small" />
          </Box>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="h4" component="h2" sx={{ fontSize: 18, lineHeight: '28px' }}>
              {t('integrations.webhooks.title')}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5, maxWidth: 640 }}>
              {t('integrations.webhooks.body')}
            </Typography>
            {atLimit && (
              <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }} data-testid="webhooks-limit">
                {t('integrations.webhooks.errors.limit', { count: WEBHOOK_ENDPOINTS_MAX })}
              </Typography>
            )}
          </Box>
        </Box>
        <Button
          variant="outlined"
          color="secondary"
          startIcon={<AddOutlined />}
          onClick={() => setFormOpen(true)}
          disabled={atLimit || !current}
          data-testid="webhook-add-button"
          sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
        >
          {t('integrations.webhooks.add')}
        </Button>
      </Box>
      <Divider />
      {content}
      <WebhookFormDialog open={formOpen} onClose={() => setFormOpen(false)} onSubmit={save} />
      <WebhookSecretDialog webhook={created} onClose={() => setCreated(null)} />
      <WebhookDeliveriesDialog
        webhook={viewing}
        onClose={() => setViewing(null)}
        onSendTest={(webhook) => void test(webhook)}
        sendingTest={sendTest.isPending}
      />
      <DeleteWebhookDialog
        url={deleting?.url ?? null}
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      />
    </Card>
  );
}
