import type { Webhook } from '@cp/contracts';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Switch from '@mui/material/Switch';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatDateTime } from '../hooks/use-format-date-time.ts';

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

/** The endpoints as a table from `md` up and as stacked items on phones; the same test ids in both. */
export function WebhooksTable(props: Props) {
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  return isDesktop ? <DesktopTable {...props} /> : <MobileList {...props} />;
}

function DesktopTable({ webhooks, ...handlers }: Props) {
  const { t } = useTranslation();
  const formatDateTime = useFormatDateTime();
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table data-testid="webhooks-table" sx={{ minWidth: 760 }}>
        <TableHead>
          <TableRow
            sx={{ '& th': { color: 'text.secondary', fontWeight: 500, bgcolor: 'grey.50', whiteSpace: 'nowrap' } }}
          >
            <TableCell>{t('integrations.webhooks.fields.url')}</TableCell>
            <TableCell>{t('integrations.webhooks.fields.events')}</TableCell>
            <TableCell>{t('integrations.webhooks.fields.enabled')}</TableCell>
            <TableCell>{t('integrations.fields.createdAt')}</TableCell>
            <TableCell align="right">
              <Box component="span" sx={visuallyHidden}>
                {t('integrations.fields.actions')}
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {webhooks.map((webhook) => (
            <TableRow key={webhook.id} hover data-testid={`webhook-row-${webhook.id}`}>
              <TableCell sx={{ maxWidth: 320 }}>
                <Endpoint webhook={webhook} />
              </TableCell>
              <TableCell sx={{ maxWidth: 220 }}>
                <Events webhook={webhook} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <EnabledSwitch webhook={webhook} {...handlers} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap', color: 'text.secondary' }}>
                {formatDateTime(webhook.created_at)}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                <RowActions webhook={webhook} {...handlers} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

function MobileList({ webhooks, ...handlers }: Props) {
  const { t } = useTranslation();
  const formatDateTime = useFormatDateTime();
  return (
    <Box component="ul" data-testid="webhooks-table" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {webhooks.map((webhook, index) => (
        <Fragment key={webhook.id}>
          {index > 0 && <Divider component="li" aria-hidden />}
          <Box component="li" data-testid={`webhook-row-${webhook.id}`} sx={{ px: 2, py: 1.5 }}>
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
          </Box>
        </Fragment>
      ))}
    </Box>
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

const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  width: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
} as const;
