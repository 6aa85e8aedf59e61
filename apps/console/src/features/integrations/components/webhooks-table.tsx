import type { Webhook } from '@cp/contracts';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ResponsiveTable, type ResponsiveTableColumn } from '../../../components/responsive-table.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { useFormatDateTime } from '../hooks/use-format-date-time.ts';
import { DateTimeCell } from './date-time-cell.tsx';

/** The narrowest an endpoint's address gets in the table; below `lg` the endpoints are stacked items. */
const URL_MIN_WIDTH = 190;

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 } as const;

export interface WebhookRowHandlers {
  /** The switch's shown state while its PATCH runs (so it moves at once). */
  pendingEnabled: { id: string; enabled: boolean } | null;
  testingId: string | null;
  onToggle: (webhook: Webhook, enabled: boolean) => void;
  onShowDeliveries: (webhook: Webhook) => void;
  onSendTest: (webhook: Webhook) => void;
  onDelete: (webhook: Webhook) => void;
}

interface Props extends WebhookRowHandlers {
  webhooks: Webhook[];
}

/** The endpoints as a table from `lg` up and as stacked items below; the same test ids in both. */
export function WebhooksTable({ webhooks, ...handlers }: Props) {
  const { t } = useTranslation();
  const formatDateTime = useFormatDateTime();
  // From `lg` up every column fits beside an address of at least URL_MIN_WIDTH (dates go over their times). An
  // address has no spaces, so it breaks where it must, but never down to a few letters a line.
  const columns: ResponsiveTableColumn<Webhook>[] = [
    {
      id: 'url',
      header: t('integrations.webhooks.fields.url'),
      cell: (webhook) => (
        <Box sx={{ minWidth: URL_MIN_WIDTH, maxWidth: 420 }}>
          <Endpoint webhook={webhook} />
        </Box>
      ),
    },
    {
      id: 'events',
      header: t('integrations.webhooks.fields.events'),
      cell: (webhook) => <Events webhook={webhook} />,
    },
    {
      id: 'enabled',
      header: t('integrations.webhooks.fields.enabled'),
      cell: (webhook) => <EnabledSwitch webhook={webhook} {...handlers} />,
      sx: { whiteSpace: 'nowrap' },
    },
    {
      id: 'createdAt',
      header: t('integrations.fields.createdAt'),
      cell: (webhook) => <DateTimeCell iso={webhook.created_at} />,
      sx: { color: 'text.secondary' },
    },
  ];
  return (
    <ResponsiveTable
      label={t('integrations.webhooks.title')}
      rows={webhooks}
      columns={columns}
      actionsLabel={t('integrations.fields.actions')}
      renderActions={(webhook) => <RowActions webhook={webhook} {...handlers} />}
      testId="webhooks-table"
      tableFrom="lg"
      rowTestId={(webhook) => `webhook-row-${webhook.id}`}
      renderMobileItem={(webhook) => (
        <>
          <Endpoint webhook={webhook} />
          <Box sx={{ mt: 1 }}>
            <Events webhook={webhook} />
          </Box>
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }}>
            {t('integrations.webhooks.createdOn', { date: formatDateTime(webhook.created_at) })}
          </Typography>
          <Box
            sx={{
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'space-between',
              gap: 1,
              mt: 0.5,
              flexWrap: 'wrap',
            }}
          >
            <EnabledSwitch webhook={webhook} {...handlers} />
            <Box sx={{ flexShrink: 0, ml: 'auto' }}>
              <RowActions webhook={webhook} {...handlers} />
            </Box>
          </Box>
        </>
      )}
    />
  );
}

function Endpoint({ webhook }: { webhook: Webhook }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Box
        component="code"
        sx={{ ...mono, display: 'block', fontWeight: 500, color: 'text.primary', overflowWrap: 'anywhere' }}
        data-testid={`webhook-url-${webhook.id}`}
      >
        {webhook.url}
      </Box>
      {webhook.description && (
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.25, overflowWrap: 'anywhere' }}>
          {webhook.description}
        </Typography>
      )}
    </Box>
  );
}

function Events({ webhook }: { webhook: Webhook }) {
  const { t } = useTranslation();
  return (
    <Box
      component="ul"
      aria-label={t('integrations.webhooks.fields.events')}
      sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexWrap: 'wrap', gap: 0.5 }}
    >
      {webhook.events.map((event) => (
        <li key={event}>
          <Tooltip title={t(`integrations.webhooks.events.${event}`)}>
            <Chip size="small" label={event} sx={{ ...mono, fontSize: 12, bgcolor: 'grey.100' }} />
          </Tooltip>
        </li>
      ))}
    </Box>
  );
}

function EnabledSwitch({
  webhook,
  pendingEnabled,
  onToggle,
}: { webhook: Webhook } & Pick<WebhookRowHandlers, 'pendingEnabled' | 'onToggle'>) {
  const { t } = useTranslation();
  const pending = pendingEnabled?.id === webhook.id;
  const enabled = pending ? pendingEnabled.enabled : webhook.enabled;
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, ml: -1 }}>
      <Switch
        checked={enabled}
        disabled={pending}
        onChange={(_, checked) => onToggle(webhook, checked)}
        slotProps={{
          input: {
            'aria-label': t('integrations.webhooks.toggleNamed', { url: webhook.url }),
            'data-testid': `webhook-toggle-${webhook.id}`,
          } as object,
        }}
      />
      <Typography variant="body2" sx={{ color: enabled ? 'success.dark' : 'text.secondary', fontWeight: 500 }}>
        {enabled ? t('integrations.webhooks.enabled') : t('integrations.webhooks.disabled')}
      </Typography>
    </Box>
  );
}

function RowActions({
  webhook,
  testingId,
  onShowDeliveries,
  onSendTest,
  onDelete,
}: { webhook: Webhook } & Pick<WebhookRowHandlers, 'testingId' | 'onShowDeliveries' | 'onSendTest' | 'onDelete'>) {
  const { t } = useTranslation();
  return (
    <>
      <Tooltip title={t('integrations.webhooks.deliveries.title')}>
        <IconButton
          aria-label={t('integrations.webhooks.deliveriesNamed', { url: webhook.url })}
          onClick={() => onShowDeliveries(webhook)}
          data-testid={`webhook-deliveries-${webhook.id}`}
        >
          <HistoryOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={webhook.enabled ? t('integrations.webhooks.sendTest') : t('integrations.webhooks.testDisabled')}>
        <span>
          <IconButton
            aria-label={t('integrations.webhooks.sendTestNamed', { url: webhook.url })}
            onClick={() => onSendTest(webhook)}
            disabled={!webhook.enabled || testingId === webhook.id}
            data-testid={`webhook-test-${webhook.id}`}
          >
            <SendOutlined fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={t('integrations.delete.action')}>
        <IconButton
          aria-label={t('integrations.webhooks.deleteNamed', { url: webhook.url })}
          onClick={() => onDelete(webhook)}
          data-testid={`webhook-delete-${webhook.id}`}
          sx={{ '&:hover': { color: 'error.main' } }}
        >
          <DeleteOutlineOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
    </>
  );
}
