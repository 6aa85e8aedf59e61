import type { AuditEvent } from '@cp/contracts';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ResponsiveTable, type ResponsiveTableColumn } from '../../../components/responsive-table.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { ActivityActor } from './activity-actor.tsx';
import { ActivitySentence } from './activity-sentence.tsx';
import { formatExact, formatRelative } from './format.ts';

/** When: relative ("3 minutes ago"), the exact instant on hover and for assistive technology. */
function When({ event, now }: { event: AuditEvent; now: Date }) {
  const { i18n } = useTranslation();
  const exact = formatExact(event.occurred_at, i18n.language);
  return (
    <Tooltip title={exact} placement="bottom-start">
      <Typography
        variant="body2"
        component="time"
        dateTime={event.occurred_at}
        aria-label={exact}
        sx={{ color: 'text.secondary', whiteSpace: 'nowrap', cursor: 'default' }}
        data-testid={`activity-when-${event.id}`}
      >
        {formatRelative(event.occurred_at, i18n.language, now)}
      </Typography>
    </Tooltip>
  );
}

/** The activity log as a table from `md` up and as stacked cards on phones (the same test ids). */
export function ActivityTable({
  events,
  organizationId,
  now = new Date(),
}: {
  events: AuditEvent[];
  organizationId: string;
  now?: Date;
}) {
  const { t } = useTranslation();
  const columns: ResponsiveTableColumn<AuditEvent>[] = [
    {
      id: 'when',
      header: t('activity.columns.when'),
      cell: (event) => <When event={event} now={now} />,
      sx: { width: 150 },
    },
    {
      id: 'who',
      header: t('activity.columns.who'),
      cell: (event) => <ActivityActor event={event} />,
      sx: { width: 260 },
    },
    {
      id: 'what',
      header: t('activity.columns.what'),
      cell: (event) => (
        <Typography variant="body2" component="span" sx={{ overflowWrap: 'anywhere' }}>
          <ActivitySentence event={event} organizationId={organizationId} />
        </Typography>
      ),
    },
  ];
  return (
    <ResponsiveTable
      label={t('activity.title')}
      rows={events}
      columns={columns}
      testId="activity-table"
      rowTestId={(event) => `activity-row-${event.id}`}
      renderMobileItem={(event) => (
        <>
          <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
            <ActivityActor event={event} />
            <Box sx={{ flexShrink: 0, pt: 0.5 }}>
              <When event={event} now={now} />
            </Box>
          </Box>
          <Typography variant="body2" sx={{ mt: 1, pl: 5.25, overflowWrap: 'anywhere' }}>
            <ActivitySentence event={event} organizationId={organizationId} />
          </Typography>
        </>
      )}
    />
  );
}
