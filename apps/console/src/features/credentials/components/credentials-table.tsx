import type { Credential, CredentialSort } from '@cp/contracts';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Fragment, type KeyboardEvent, type ReactNode } from 'react';
import { LightDivider } from '../../../components/light-divider.tsx';
import { MobileFacts } from '../../../components/mobile-facts.tsx';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { credentialSchemaText } from '../../../lib/credential-schema-text.ts';
import { CredentialStatusChip } from './credential-status-chip.tsx';
import { formatDate } from './format.ts';

/** The columns that sort, each by one field of the API's `sort` (the indexes serve these). */
type SortableColumn = 'created_at' | 'status' | 'recipient' | 'expires_at';

/** A header's next sort: the field ascending first (newest first for the creation date), then the other way. */
export function nextSort(column: SortableColumn, current: CredentialSort): CredentialSort {
  if (column === 'created_at') return current === '-created_at' ? 'created_at' : '-created_at';
  return current === column ? (`-${column}` as CredentialSort) : column;
}

const directionOf = (column: SortableColumn, sort: CredentialSort): 'asc' | 'desc' | false => {
  if (sort === column) return 'asc';
  if (sort === `-${column}`) return 'desc';
  return false;
};

export interface CredentialsTableProps {
  rows: Credential[];
  sort: CredentialSort;
  onSort: (sort: CredentialSort) => void;
  selected: string[];
  onToggle: (id: string) => void;
  onToggleAll: () => void;
  onOpen: (credential: Credential) => void;
  onCopyLink: (credential: Credential) => void;
  /** Shown instead of rows when there are none (filters that match nothing). */
  empty: ReactNode;
}

/**
 * The issued credentials: a table from `md` up, with sortable headers (aria-sort on the sorted one), and
 * stacked cards on phones (a table there needs 860 px and scrolls the status and the link off-screen). The
 * same test ids in both.
 */
export function CredentialsTable(props: CredentialsTableProps) {
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  return isDesktop ? <DesktopTable {...props} /> : <PhoneCards {...props} />;
}

function useRowText() {
  const { t, i18n } = useTranslation();
  return {
    t,
    type: (row: Credential) => credentialSchemaText(row.schema, i18n).name,
    date: (value: string | null) => formatDate(value, i18n.language),
  };
}

/** Opens the detail from the keyboard too (the row is focusable). */
const openOnEnter = (open: () => void) => (event: KeyboardEvent) => {
  if (event.target !== event.currentTarget) return;
  if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    open();
  }
};

function CopyLinkButton({ row, onCopyLink }: { row: Credential; onCopyLink: (credential: Credential) => void }) {
  const { t } = useTranslation();
  return (
    <Button
      size="small"
      color="secondary"
      startIcon={<ContentCopyOutlined fontSize="small" />}
      onClick={(event) => {
        event.stopPropagation();
        onCopyLink(row);
      }}
      data-testid={`credential-copy-${row.id}`}
      sx={{ whiteSpace: 'nowrap' }}
    >
      {t('issuing.list.copyLink')}
    </Button>
  );
}

function DesktopTable({
  rows,
  sort,
  onSort,
  selected,
  onToggle,
  onToggleAll,
  onOpen,
  onCopyLink,
  empty,
}: CredentialsTableProps) {
  const { t, type, date } = useRowText();
  const allSelected = rows.length > 0 && rows.every((row) => selected.includes(row.id));
  const sortHeader = (column: SortableColumn, label: string) => {
    const direction = directionOf(column, sort);
    return (
      <TableCell sortDirection={direction} data-testid={`credentials-sort-${column}`}>
        <TableSortLabel
          active={direction !== false}
          direction={direction || (column === 'created_at' ? 'desc' : 'asc')}
          onClick={() => onSort(nextSort(column, sort))}
        >
          {label}
        </TableSortLabel>
      </TableCell>
    );
  };
  return (
    <ScrollRegion label={t('pages.credentials')}>
      <Table data-testid="credentials-table" sx={{ '& th': { whiteSpace: 'nowrap' } }}>
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox">
              <Checkbox
                checked={allSelected}
                indeterminate={!allSelected && rows.some((row) => selected.includes(row.id))}
                onChange={onToggleAll}
                slotProps={{ input: { 'aria-label': t('issuing.list.selectAll') } }}
                data-testid="credentials-select-all"
              />
            </TableCell>
            {sortHeader('recipient', t('issuing.list.recipient'))}
            <TableCell>{t('issuing.list.schema')}</TableCell>
            {sortHeader('created_at', t('issuing.list.createdAt'))}
            {sortHeader('expires_at', t('issuing.list.expiresAt'))}
            {sortHeader('status', t('issuing.list.status'))}
            <TableCell align="right">{t('issuing.list.link')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.length === 0 && (
            <TableRow>
              <TableCell colSpan={7} sx={{ textAlign: 'center', color: 'text.secondary', py: 4 }}>
                {empty}
              </TableCell>
            </TableRow>
          )}
          {rows.map((row) => (
            <TableRow
              key={row.id}
              hover
              tabIndex={0}
              data-testid={`credential-row-${row.id}`}
              onClick={() => onOpen(row)}
              onKeyDown={openOnEnter(() => onOpen(row))}
              sx={{ cursor: 'pointer' }}
            >
              <TableCell padding="checkbox" onClick={(event) => event.stopPropagation()}>
                <Checkbox
                  checked={selected.includes(row.id)}
                  onChange={() => onToggle(row.id)}
                  slotProps={{ input: { 'aria-label': t('issuing.list.select') } }}
                  data-testid={`credential-select-${row.id}`}
                />
              </TableCell>
              {/* break-word, not anywhere: a column keeps an address's width unless the table cannot. */}
              <TableCell sx={{ overflowWrap: 'break-word', maxWidth: 320 }}>
                <Typography variant="body2" sx={{ fontWeight: 500 }}>
                  {row.recipient.first_name} {row.recipient.last_name}
                </Typography>
                <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                  {row.recipient.email}
                </Typography>
              </TableCell>
              <TableCell sx={{ overflowWrap: 'break-word', maxWidth: 260 }}>
                <Typography variant="body2">{type(row)}</Typography>
                <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                  {row.name}
                </Typography>
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{date(row.created_at)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{date(row.expired_at)}</TableCell>
              <TableCell>
                <CredentialStatusChip id={row.id} status={row.status} />
              </TableCell>
              <TableCell align="right" onClick={(event) => event.stopPropagation()}>
                <CopyLinkButton row={row} onCopyLink={onCopyLink} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}

function PhoneCards({ rows, selected, onToggle, onToggleAll, onOpen, onCopyLink, empty }: CredentialsTableProps) {
  const { t, type, date } = useRowText();
  const allSelected = rows.length > 0 && rows.every((row) => selected.includes(row.id));
  return (
    <Box>
      {rows.length > 0 && (
        <Box sx={{ display: 'flex', alignItems: 'center', px: 1, py: 0.5, borderBottom: 1, borderColor: 'divider' }}>
          <Checkbox
            checked={allSelected}
            indeterminate={!allSelected && rows.some((row) => selected.includes(row.id))}
            onChange={onToggleAll}
            slotProps={{ input: { 'aria-label': t('issuing.list.selectAll') } }}
            data-testid="credentials-select-all"
          />
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('issuing.list.selectAll')}
          </Typography>
        </Box>
      )}
      <Box component="ul" data-testid="credentials-table" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {rows.length === 0 && (
          <Box component="li" sx={{ textAlign: 'center', color: 'text.secondary', py: 4, px: 2 }}>
            {empty}
          </Box>
        )}
        {rows.map((row, index) => (
          <Fragment key={row.id}>
            {index > 0 && <LightDivider component="li" aria-hidden />}
            <Box
              component="li"
              data-testid={`credential-row-${row.id}`}
              tabIndex={0}
              onClick={() => onOpen(row)}
              onKeyDown={openOnEnter(() => onOpen(row))}
              sx={{
                display: 'flex',
                gap: 0.5,
                pl: 0.5,
                pr: 2,
                pt: 1,
                pb: 0.5,
                cursor: 'pointer',
                '&:hover': { bgcolor: 'action.hover' },
              }}
            >
              <Box onClick={(event) => event.stopPropagation()}>
                <Checkbox
                  checked={selected.includes(row.id)}
                  onChange={() => onToggle(row.id)}
                  slotProps={{ input: { 'aria-label': t('issuing.list.select') } }}
                  data-testid={`credential-select-${row.id}`}
                />
              </Box>
              <Box sx={{ flex: 1, minWidth: 0, pt: 1 }}>
                <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
                  <Box sx={{ minWidth: 0 }}>
                    <Typography variant="subtitle2" sx={{ overflowWrap: 'anywhere' }}>
                      {row.recipient.first_name} {row.recipient.last_name}
                    </Typography>
                    <Typography
                      variant="caption"
                      component="div"
                      sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}
                    >
                      {row.recipient.email}
                    </Typography>
                  </Box>
                  <CredentialStatusChip id={row.id} status={row.status} />
                </Box>
                <MobileFacts sx={{ rowGap: 0.25 }}>
                  <dt>{t('issuing.list.schema')}</dt>
                  <dd>
                    {type(row)}
                    {row.name !== type(row) && (
                      <Box component="span" sx={{ color: 'text.secondary' }}>
                        {' · '}
                        {row.name}
                      </Box>
                    )}
                  </dd>
                  <dt>{t('issuing.list.createdAt')}</dt>
                  <dd>{date(row.created_at)}</dd>
                  <dt>{t('issuing.list.expiresAt')}</dt>
                  <dd>{date(row.expired_at)}</dd>
                </MobileFacts>
                <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 0.5, mr: -1 }}>
                  <CopyLinkButton row={row} onCopyLink={onCopyLink} />
                </Box>
              </Box>
            </Box>
          </Fragment>
        ))}
      </Box>
    </Box>
  );
}
