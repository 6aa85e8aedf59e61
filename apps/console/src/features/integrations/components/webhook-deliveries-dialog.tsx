import type { Webhook, WebhookDelivery } from '@cp/contracts';
import RefreshOutlined from '@mui/icons-material/RefreshOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Fragment, type ReactNode, useState } from 'react';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { useWebhookDeliveries } from '../api/find-webhook-deliveries.ts';
import { useFormatDateTime } from '../hooks/use-format-date-time.ts';
import { WebhookDeliveryStatusChip } from './webhook-delivery-status-chip.tsx';

/** Spec §9: pages of 10. */
export const WEBHOOK_DELIVERIES_PAGE_SIZE = 10;

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 } as const;

/** The delivery log of one endpoint, newest first: full screen on phones, a wide dialog from `sm` up. */
export function WebhookDeliveriesDialog({
  webhook,
  onClose,
  onSendTest,
  sendingTest,
}: {
  webhook: Webhook | null;
  onClose: () => void;
  onSendTest: (webhook: Webhook) => void;
  sendingTest: boolean;
}) {
  const { t } = useTranslation();
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  return (
    <Dialog
      open={webhook !== null}
      onClose={onClose}
      fullWidth
      maxWidth="md"
      fullScreen={isPhone}
      aria-labelledby="webhook-deliveries-title"
    >
      {webhook && (
        <>
          <DialogTitle id="webhook-deliveries-title" sx={{ pb: 0.5 }}>
            <Typography component="span" variant="h4" sx={{ display: 'block', fontSize: 18, lineHeight: '28px' }}>
              {t('integrations.webhooks.deliveries.title')}
            </Typography>
            <Typography
              component="span"
              variant="body2"
              sx={{ ...mono, display: 'block', color: 'text.secondary', overflowWrap: 'anywhere' }}
            >
              {webhook.url}
            </Typography>
          </DialogTitle>
          <DeliveryLog webhook={webhook} onSendTest={onSendTest} sendingTest={sendingTest} />
          <DialogActions sx={{ px: 3, pb: 2.5 }}>
            <Button variant="contained" onClick={onClose} data-testid="webhook-deliveries-close">
              {t('common.close')}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}

function DeliveryLog({
  webhook,
  onSendTest,
  sendingTest,
}: {
  webhook: Webhook;
  onSendTest: (webhook: Webhook) => void;
  sendingTest: boolean;
}) {
  const { t } = useTranslation();
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [page, setPage] = useState(1);
  const deliveries = useWebhookDeliveries(webhook.id, page, WEBHOOK_DELIVERIES_PAGE_SIZE);
  const results = deliveries.data?.results ?? [];
  const total = deliveries.data?.total ?? 0;
  const pages = Math.ceil(total / WEBHOOK_DELIVERIES_PAGE_SIZE);

  let body: ReactNode;
  if (deliveries.isPending) {
    body = (
      <Box sx={{ py: 1 }}>
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} variant="rounded" height={36} sx={{ mt: row ? 1.5 : 0 }} />
        ))}
      </Box>
    );
  } else if (deliveries.isError) {
    body = (
      <Typography variant="body2" sx={{ color: 'error.main', py: 3, textAlign: 'center' }} role="alert">
        {t('integrations.webhooks.errors.deliveries')}
      </Typography>
    );
  } else if (results.length === 0) {
    body = (
      <Typography
        variant="body2"
        sx={{ color: 'text.secondary', py: 4, textAlign: 'center' }}
        data-testid="webhook-deliveries-empty"
      >
        {t('integrations.webhooks.deliveries.empty')}
      </Typography>
    );
  } else {
    body = isDesktop ? <DeliveriesTable deliveries={results} /> : <DeliveriesList deliveries={results} />;
  }

  return (
    <DialogContent>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 1,
          flexWrap: 'wrap',
          mb: 1.5,
        }}
      >
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('integrations.webhooks.deliveries.body')}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, ml: 'auto' }}>
          <Button
            size="small"
            variant="outlined"
            color="secondary"
            startIcon={<SendOutlined />}
            disabled={sendingTest || !webhook.enabled}
            onClick={() => onSendTest(webhook)}
            data-testid="webhook-deliveries-test"
          >
            {t('integrations.webhooks.sendTest')}
          </Button>
          <Tooltip title={t('integrations.webhooks.deliveries.refresh')}>
            <span>
              <IconButton
                size="small"
                aria-label={t('integrations.webhooks.deliveries.refresh')}
                onClick={() => void deliveries.refetch()}
                disabled={deliveries.isFetching}
                data-testid="webhook-deliveries-refresh"
              >
                <RefreshOutlined fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        </Box>
      </Box>
      <Box data-testid="webhook-deliveries" aria-busy={deliveries.isFetching}>
        {body}
      </Box>
      {pages > 1 && (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
          <Pagination
            count={pages}
            page={page}
            onChange={(_, value) => setPage(value)}
            shape="rounded"
            size="small"
            data-testid="webhook-deliveries-pagination"
          />
        </Box>
      )}
    </DialogContent>
  );
}

function useResponseText() {
  const { t } = useTranslation();
  return (delivery: WebhookDelivery) => {
    const parts: string[] = [];
    if (delivery.last_status_code !== null) parts.push(`HTTP ${delivery.last_status_code}`);
    if (delivery.last_error) parts.push(delivery.last_error);
    return parts.length > 0 ? parts.join(' · ') : t('integrations.webhooks.deliveries.noResponse');
  };
}

function NextAttempt({ delivery }: { delivery: WebhookDelivery }) {
  const { t } = useTranslation();
  const formatDateTime = useFormatDateTime();
  if (delivery.status !== 'PENDING' || !delivery.next_attempt_at) return null;
  return (
    <Typography variant="caption" component="p" sx={{ color: 'text.secondary', fontSize: 12 }}>
      {t('integrations.webhooks.deliveries.nextAttempt', { date: formatDateTime(delivery.next_attempt_at) })}
    </Typography>
  );
}

function DeliveriesTable({ deliveries }: { deliveries: WebhookDelivery[] }) {
  const { t } = useTranslation();
  const formatDateTime = useFormatDateTime();
  const responseText = useResponseText();
  return (
    <ScrollRegion
      label={t('integrations.webhooks.deliveries.title')}
      sx={{ border: 1, borderColor: 'grey.200', borderRadius: 1 }}
    >
      <Table size="small" sx={{ minWidth: 680 }}>
        <TableHead>
          <TableRow
            sx={{ '& th': { color: 'text.secondary', fontWeight: 500, bgcolor: 'grey.50', whiteSpace: 'nowrap' } }}
          >
            <TableCell>{t('integrations.webhooks.deliveries.event')}</TableCell>
            <TableCell>{t('integrations.webhooks.deliveries.statusLabel')}</TableCell>
            <TableCell align="right">{t('integrations.webhooks.deliveries.attempts')}</TableCell>
            <TableCell>{t('integrations.webhooks.deliveries.response')}</TableCell>
            <TableCell>{t('integrations.webhooks.deliveries.time')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {deliveries.map((delivery) => (
            <TableRow key={delivery.id} data-testid={`webhook-delivery-${delivery.id}`}>
              <TableCell>
                <Box component="code" sx={mono}>
                  {delivery.event_type}
                </Box>
              </TableCell>
              <TableCell>
                <WebhookDeliveryStatusChip status={delivery.status} />
              </TableCell>
              <TableCell align="right">{delivery.attempts}</TableCell>
              <TableCell sx={{ maxWidth: 260, overflowWrap: 'anywhere', color: 'text.secondary' }}>
                {responseText(delivery)}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap', color: 'text.secondary' }}>
                {formatDateTime(delivery.created_at)}
                <NextAttempt delivery={delivery} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}

function DeliveriesList({ deliveries }: { deliveries: WebhookDelivery[] }) {
  const { t } = useTranslation();
  const formatDateTime = useFormatDateTime();
  const responseText = useResponseText();
  return (
    <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, border: 1, borderColor: 'grey.200', borderRadius: 1 }}>
      {deliveries.map((delivery, index) => (
        <Fragment key={delivery.id}>
          {index > 0 && <Divider component="li" aria-hidden />}
          <Box component="li" data-testid={`webhook-delivery-${delivery.id}`} sx={{ px: 1.5, py: 1.25 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
              <Box component="code" sx={{ ...mono, overflowWrap: 'anywhere' }}>
                {delivery.event_type}
              </Box>
              <WebhookDeliveryStatusChip status={delivery.status} />
            </Box>
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5, overflowWrap: 'anywhere' }}>
              {responseText(delivery)}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.25 }}>
              {formatDateTime(delivery.created_at)} ·{' '}
              {t('integrations.webhooks.deliveries.attemptsValue', { count: delivery.attempts })}
            </Typography>
            <NextAttempt delivery={delivery} />
          </Box>
        </Fragment>
      ))}
    </Box>
  );
}
