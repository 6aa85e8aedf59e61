import type { ApiKey } from '@cp/contracts';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Pagination from '@mui/material/Pagination';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ResponsiveTable, type ResponsiveTableColumn } from '../../../components/responsive-table.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { useCopyToClipboard } from '../../../lib/use-copy-to-clipboard.ts';
import { useFormatDateTime } from '../hooks/use-format-date-time.ts';
import { DateTimeCell } from './date-time-cell.tsx';

/** The narrowest a key's name gets in the table (it wraps beyond); below `lg` the keys are cards. */
const NAME_MIN_WIDTH = 180;

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 } as const;

interface Props {
  apiKeys: ApiKey[];
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onRename: (apiKey: ApiKey) => void;
  onDelete: (apiKey: ApiKey) => void;
}

/** The keys as a table from `lg` up and as stacked cards below; the same test ids in both. */
export function ApiKeysTable({ apiKeys, total, page, pageSize, onPageChange, onRename, onDelete }: Props) {
  const { t } = useTranslation();
  const formatDateTime = useFormatDateTime();
  const pages = Math.ceil(total / pageSize);
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  const lastUsed = (apiKey: ApiKey) =>
    apiKey.last_used_at ? formatDateTime(apiKey.last_used_at) : t('integrations.neverUsed');
  // From `lg` up (the side menu takes 280 px) every column fits beside a name of at least NAME_MIN_WIDTH: the key's
  // secret goes under its id and dates over their times, and a name wraps between words (inside a word only when
  // the word alone is wider than the column), never down to a letter a line.
  const columns: ResponsiveTableColumn<ApiKey>[] = [
    {
      id: 'name',
      header: t('integrations.fields.name'),
      cell: (apiKey) => (
        <Box
          sx={{ minWidth: NAME_MIN_WIDTH, maxWidth: 360, overflowWrap: 'anywhere' }}
          data-testid={`integration-name-${apiKey.id}`}
        >
          {apiKey.name}
        </Box>
      ),
      sx: { fontWeight: 500 },
    },
    {
      id: 'key',
      header: t('integrations.fields.keyAndSecret'),
      cell: (apiKey) => (
        <>
          <KeyId value={apiKey.key} nowrap />
          <Box title={t('integrations.fields.secret')}>
            <MaskedSecret lastFour={apiKey.last_four} />
          </Box>
        </>
      ),
    },
    {
      id: 'createdAt',
      header: t('integrations.fields.createdAt'),
      cell: (apiKey) => <DateTimeCell iso={apiKey.created_at} />,
      sx: { color: 'text.secondary' },
    },
    {
      id: 'lastUsedAt',
      header: t('integrations.fields.lastUsedAt'),
      cell: (apiKey) =>
        apiKey.last_used_at ? (
          <DateTimeCell iso={apiKey.last_used_at} />
        ) : (
          <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
            {t('integrations.neverUsed')}
          </Box>
        ),
      sx: { color: 'text.secondary' },
    },
  ];
  const actions = (apiKey: ApiKey) => <RowActions apiKey={apiKey} onRename={onRename} onDelete={onDelete} />;

  return (
    <Card>
      <ResponsiveTable
        label={t('integrations.title')}
        rows={apiKeys}
        columns={columns}
        actionsLabel={t('integrations.fields.actions')}
        renderActions={actions}
        testId="integrations-table"
        tableFrom="lg"
        rowTestId={(apiKey) => `integration-row-${apiKey.id}`}
        renderMobileItem={(apiKey) => (
          <>
            <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
              <Typography variant="subtitle2" sx={{ overflowWrap: 'anywhere' }}>
                {apiKey.name}
              </Typography>
              <Box sx={{ flexShrink: 0 }}>{actions(apiKey)}</Box>
            </Box>
            <Box
              component="dl"
              sx={{
                m: 0,
                mt: 0.5,
                display: 'grid',
                gridTemplateColumns: 'auto minmax(0, 1fr)',
                columnGap: 2,
                rowGap: 0.5,
                alignItems: 'center',
                '& dt': { color: 'text.secondary', typography: 'body2' },
                '& dd': { m: 0, typography: 'body2', minWidth: 0 },
              }}
            >
              <dt>{t('integrations.fields.key')}</dt>
              <dd>
                <KeyId value={apiKey.key} />
              </dd>
              <dt>{t('integrations.fields.secret')}</dt>
              <dd>
                <MaskedSecret lastFour={apiKey.last_four} />
              </dd>
              <dt>{t('integrations.fields.createdAt')}</dt>
              <dd>{formatDateTime(apiKey.created_at)}</dd>
              <dt>{t('integrations.fields.lastUsedAt')}</dt>
              <dd>{lastUsed(apiKey)}</dd>
            </Box>
          </>
        )}
      />
      <Divider />
      <Box
        sx={{
          px: { xs: 2, md: 3 },
          py: 1.5,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 2,
          flexWrap: 'wrap',
        }}
      >
        <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="integrations-range">
          {t('integrations.range', { from, to, total })}
        </Typography>
        {pages > 1 && (
          <Pagination
            count={pages}
            page={page}
            onChange={(_, value) => onPageChange(value)}
            shape="rounded"
            size="small"
            data-testid="integrations-pagination"
          />
        )}
      </Box>
    </Card>
  );
}

/** Click-to-copy key id (REFERENCE-PRODUCT: keys table with click-to-copy). */
function KeyId({ value, nowrap = false }: { value: string; nowrap?: boolean }) {
  const { t } = useTranslation();
  const copy = useCopyToClipboard();
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, maxWidth: '100%' }}>
      <Box component="code" sx={{ ...mono, overflowWrap: 'anywhere', whiteSpace: nowrap ? 'nowrap' : 'normal' }}>
        {value}
      </Box>
      <Tooltip title={t('integrations.copyKey')}>
        <IconButton
          size="small"
          aria-label={t('integrations.copyKey')}
          onClick={() => void copy(value, t('integrations.keyCopied'))}
        >
          <ContentCopyOutlined sx={{ fontSize: 16 }} />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

function MaskedSecret({ lastFour }: { lastFour: string }) {
  const { t } = useTranslation();
  return (
    <Box
      component="code"
      sx={{ ...mono, color: 'text.secondary', whiteSpace: 'nowrap' }}
      aria-label={t('integrations.secretEndsWith', { lastFour })}
    >
      {`••••••••${lastFour}`}
    </Box>
  );
}

function RowActions({
  apiKey,
  onRename,
  onDelete,
}: {
  apiKey: ApiKey;
  onRename: (apiKey: ApiKey) => void;
  onDelete: (apiKey: ApiKey) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Tooltip title={t('integrations.rename')}>
        <IconButton
          aria-label={t('integrations.renameNamed', { name: apiKey.name })}
          onClick={() => onRename(apiKey)}
          data-testid={`integration-rename-${apiKey.id}`}
        >
          <EditOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={t('integrations.delete.action')}>
        <IconButton
          aria-label={t('integrations.deleteNamed', { name: apiKey.name })}
          onClick={() => onDelete(apiKey)}
          data-testid={`integration-delete-${apiKey.id}`}
          sx={{ '&:hover': { color: 'error.main' } }}
        >
          <DeleteOutlineOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
    </>
  );
}
