import type { Credential, CredentialSort, CredentialStatus } from '@cp/contracts';
import AddOutlined from '@mui/icons-material/AddOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { PagePagination } from '../../../components/page-pagination.tsx';
import { RouterLink } from '../../../components/router-link.tsx';
import { loadWorkspacePagesMessages, useTranslation } from '../../../i18n/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { credentialSchemaText } from '../../../lib/credential-schema-text.ts';
import { CREDENTIAL_STATUSES } from '../../../lib/credential-statuses.ts';
import { useIdentity } from '../../../lib/identity-context.ts';
import { lazyComponent, whenIdle } from '../../../lib/lazy-component.ts';
import { preloadSelectMenu, SelectOption } from '../../../lib/lazy-select-menu.tsx';
import { notify } from '../../../lib/notifications.ts';
import { useSearchParams } from '../../../lib/use-search-params.ts';
import { KybBanner } from '../../kyb/components/kyb-banner.tsx';
import { useDeleteCredentials } from '../api/delete-credentials.ts';
import {
  CREDENTIAL_SORTS,
  type CredentialFilters,
  DEFAULT_CREDENTIAL_SORT,
  isCredentialSort,
  useCredentials,
} from '../api/find-credentials.ts';
import { useSchemas } from '../api/find-issuable-schemas.ts';
import { useRevokeCredentials } from '../api/revoke-credentials.ts';
import { CredentialsTable } from './credentials-table.tsx';

// Shown on demand only: their code (and the zod schemas behind the detail's calls) stays out of the first page.
const ConfirmDialog = lazyComponent(() =>
  import('../../../components/confirm-dialog.tsx').then((m) => m.ConfirmDialog),
);
// The detail's messages are not the list's: they come with its code (workspace-pages part).
const CredentialDetailDialog = lazyComponent(() =>
  Promise.all([import('./credential-detail-dialog.tsx'), loadWorkspacePagesMessages()]).then(
    ([m]) => m.CredentialDetailDialog,
  ),
);

const pageFrom = (value: string | null) => {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
};

const isStatus = (value: string | null): value is CredentialStatus =>
  CREDENTIAL_STATUSES.includes(value as CredentialStatus);

/** A real calendar day (YYYY-MM-DD, 1900-9998, as the API takes) as a date input gives it, else nothing. */
function dayFrom(value: string | null) {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value) || value < '1900-01-01' || value > '9998-12-31') return '';
  // Date.parse accepts 2026-02-30 (as 2 March): the day must read back the same.
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value ? value : '';
}

/**
 * /credentials/{orgId}: the issued credentials, 10 per page, filtered (status, schema, search, creation days),
 * sorted by a column, exported as CSV, with bulk revoke and delete. Everything the user chose is in the URL.
 */
export function CredentialsPage() {
  const { t, i18n } = useTranslation();
  const { orgId } = useParams();
  const { current, organizations } = useIdentity();
  const organization = organizations.find((o) => o.id === orgId) ?? current;
  const organizationId = organization?.id ?? '';
  const [searchParams, setSearchParams] = useSearchParams();
  const page = pageFrom(searchParams.get('page'));
  const statusParam = searchParams.get('status');
  const sortParam = searchParams.get('sort');
  const sort: CredentialSort = isCredentialSort(sortParam) ? sortParam : DEFAULT_CREDENTIAL_SORT;
  const from = dayFrom(searchParams.get('from'));
  const to = dayFrom(searchParams.get('to'));
  // A range ending before it starts is not sent (the field says why).
  const rangeInvalid = Boolean(from && to && from > to);
  const filters: CredentialFilters = {
    status: isStatus(statusParam) ? statusParam : '',
    schema_id: searchParams.get('schema') ?? '',
    search: searchParams.get('search') ?? '',
    created_from: rangeInvalid ? '' : from,
    created_to: rangeInvalid ? '' : to,
  };
  const [searchText, setSearchText] = useState(filters.search ?? '');
  const credentials = useCredentials(organizationId || undefined, page, filters, sort);
  const schemas = useSchemas(organizationId || undefined, 1, 100);
  const revoke = useRevokeCredentials(organizationId);
  const remove = useDeleteCredentials(organizationId);
  const [selected, setSelected] = useState<string[]>([]);
  const [confirming, setConfirming] = useState<'revoke' | 'delete' | null>(null);
  // Each dialog mounts when first wanted and stays mounted, so that closing it still plays its transition.
  const [confirmMounted, setConfirmMounted] = useState(false);
  if (confirming !== null && !confirmMounted) setConfirmMounted(true);
  const [viewing, setViewing] = useState<Credential | null>(null);
  const [detailMounted, setDetailMounted] = useState(false);
  if (viewing !== null && !detailMounted) setDetailMounted(true);
  // Once the list has painted, fetch the detail's code and the filters' menu while the browser is idle: opening a row or
  // a filter then waits for nothing.
  useEffect(
    () =>
      whenIdle(() => {
        void CredentialDetailDialog.preload();
        void preloadSelectMenu().catch(() => undefined);
      }),
    [],
  );
  const [exporting, setExporting] = useState(false);

  // Changes build on the last one asked for, not on this render's URL: two fields changed before the page
  // renders again (the start then the end of a range) both stay. (React Router's functional update gets
  // this render's search params too.)
  const pendingParams = useRef<URLSearchParams | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new URL is what makes the pending change obsolete
  useEffect(() => {
    pendingParams.current = null;
  }, [searchParams]);
  const setParam = (name: string, value: string) => {
    const next = new URLSearchParams(pendingParams.current ?? searchParams);
    if (value) next.set(name, value);
    else next.delete(name);
    if (name !== 'page') next.delete('page');
    pendingParams.current = next;
    setSearchParams(next);
    setSelected([]);
  };
  const setSort = (next: CredentialSort) => setParam('sort', next === DEFAULT_CREDENTIAL_SORT ? '' : next);

  // The recipient search is sent once the user pauses typing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the typed text triggers the search
  useEffect(() => {
    if (searchText === (filters.search ?? '')) return;
    const timer = setTimeout(() => setParam('search', searchText.trim()), 300);
    return () => clearTimeout(timer);
  }, [searchText]);

  const data = credentials.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;
  const rows = data?.results ?? [];
  const allSelected = rows.length > 0 && rows.every((row) => selected.includes(row.id));

  const toggle = (id: string) =>
    setSelected((list) => (list.includes(id) ? list.filter((item) => item !== id) : [...list, id]));

  const copyLink = async (credential: Credential) => {
    try {
      await navigator.clipboard.writeText(credential.connect_url);
      notify({ severity: 'success', title: t('issuing.list.linkCopied') });
    } catch {
      notify({ severity: 'error', title: t('issuing.list.linkCopyFailed') });
    }
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      // The export's code comes on the first click: it is not part of the list's first page.
      const { downloadCredentialsCsv } = await import('../api/export-credentials.ts');
      await downloadCredentialsCsv(organizationId, filters, sort);
    } catch (error) {
      notify({
        severity: 'error',
        title: t(isApiError(error) && error.catalogueKey ? error.catalogueKey : 'issuing.list.exportFailed'),
      });
    } finally {
      setExporting(false);
    }
  };

  const confirm = async () => {
    const ids = selected;
    try {
      if (confirming === 'revoke') {
        await revoke.mutateAsync(ids);
        notify({ severity: 'success', title: t('issuing.list.revoked', { count: ids.length }) });
      } else {
        await remove.mutateAsync(ids);
        notify({ severity: 'success', title: t('issuing.list.deleted', { count: ids.length }) });
      }
      setSelected([]);
    } catch {
      notify({
        severity: 'error',
        title: t(confirming === 'revoke' ? 'catalogue.revokeCredentials' : 'catalogue.deleteCredentials'),
      });
    } finally {
      setConfirming(null);
    }
  };

  const issueButton = (
    <Button
      variant="contained"
      component={RouterLink}
      to="/credentials/create"
      startIcon={<AddOutlined />}
      data-testid="issue-credentials-button"
    >
      {t('issuing.list.issue')}
    </Button>
  );

  const field = { flex: { xs: '1 1 100%', sm: '0 0 auto' } } as const;
  // Two side by side on a phone: the list stays within reach below the filters.
  const halfField = { flex: { xs: '1 1 140px', sm: '0 0 auto' } } as const;
  const filtersBar = (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2 }}>
      <TextField
        select
        size="small"
        label={t('issuing.list.filterStatus')}
        value={filters.status}
        onChange={(event) => setParam('status', event.target.value)}
        sx={{ minWidth: 140, ...halfField }}
        slotProps={{ htmlInput: { 'data-testid': 'credentials-filter-status' } }}
      >
        <SelectOption value="">{t('issuing.list.allStatuses')}</SelectOption>
        {CREDENTIAL_STATUSES.map((status) => (
          <SelectOption key={status} value={status}>
            {t(`issuing.status.${status}`)}
          </SelectOption>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('issuing.list.filterSchema')}
        value={schemas.data ? filters.schema_id : ''}
        onChange={(event) => setParam('schema', event.target.value)}
        sx={{ minWidth: { xs: 140, sm: 200 }, ...halfField }}
        slotProps={{ htmlInput: { 'data-testid': 'credentials-filter-schema' } }}
      >
        <SelectOption value="">{t('issuing.list.allSchemas')}</SelectOption>
        {(schemas.data?.results ?? []).map((schema) => (
          <SelectOption key={schema.id} value={schema.id}>
            {credentialSchemaText(schema, i18n).name}
          </SelectOption>
        ))}
      </TextField>
      <Box sx={{ display: 'flex', gap: 2, ...field }}>
        <TextField
          size="small"
          type="date"
          label={t('issuing.list.filterFrom')}
          value={from}
          onChange={(event) => setParam('from', dayFrom(event.target.value))}
          sx={{ flex: 1, minWidth: 150 }}
          slotProps={{
            inputLabel: { shrink: true },
            htmlInput: { 'data-testid': 'credentials-filter-from', max: to || undefined },
          }}
        />
        <TextField
          size="small"
          type="date"
          label={t('issuing.list.filterTo')}
          value={to}
          onChange={(event) => setParam('to', dayFrom(event.target.value))}
          error={rangeInvalid}
          helperText={rangeInvalid ? t('issuing.list.rangeInvalid') : undefined}
          sx={{ flex: 1, minWidth: 150 }}
          slotProps={{
            inputLabel: { shrink: true },
            htmlInput: { 'data-testid': 'credentials-filter-to', min: from || undefined },
          }}
        />
      </Box>
      <TextField
        size="small"
        type="search"
        label={t('issuing.list.search')}
        value={searchText}
        onChange={(event) => setSearchText(event.target.value)}
        sx={{ flex: '1 1 220px' }}
        slotProps={{ htmlInput: { 'data-testid': 'credentials-filter-search' } }}
      />
      {/* Phones show cards, without column headers: the sort is chosen here instead. */}
      <TextField
        select
        size="small"
        label={t('issuing.list.sortBy')}
        value={sort}
        onChange={(event) => setSort(event.target.value as CredentialSort)}
        sx={{ display: { xs: 'flex', md: 'none' }, ...field }}
        slotProps={{ htmlInput: { 'data-testid': 'credentials-sort-select' } }}
      >
        {CREDENTIAL_SORTS.map((option) => (
          <SelectOption key={option} value={option}>
            {t(`issuing.list.sort.${option}`)}
          </SelectOption>
        ))}
      </TextField>
    </Box>
  );

  const filtered = Boolean(filters.status || filters.schema_id || filters.search || from || to);

  let content: ReactNode;
  if (!data) {
    content = credentials.isError ? (
      <Card
        sx={{ p: 3, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}
        data-testid="credentials-error"
      >
        <Typography variant="body2" sx={{ color: 'error.main', flex: 1 }}>
          {t('catalogue.getCredentials')}
        </Typography>
        <Button variant="outlined" color="secondary" onClick={() => void credentials.refetch()}>
          {t('issuing.list.retry')}
        </Button>
      </Card>
    ) : (
      <Card sx={{ p: 2 }}>
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} height={48} />
        ))}
      </Card>
    );
  } else if (data.total === 0 && !filtered) {
    content = (
      <EmptyState
        icon={<WorkspacePremiumOutlined />}
        title={t('issuing.list.emptyTitle')}
        body={t('issuing.list.emptyBody')}
        action={issueButton}
      />
    );
  } else {
    content = (
      <>
        {filtersBar}
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2, flexWrap: 'wrap', minHeight: 40 }}>
          <Typography variant="body2" sx={{ flex: 1, color: 'text.secondary' }} data-testid="credentials-summary">
            {selected.length > 0
              ? t('issuing.list.selected', { count: selected.length })
              : t('issuing.list.total', { count: data.total })}
          </Typography>
          {selected.length > 0 ? (
            <>
              <Button
                variant="outlined"
                color="warning"
                onClick={() => setConfirming('revoke')}
                data-testid="credentials-bulk-revoke"
              >
                {t('issuing.list.revoke')}
              </Button>
              <Button
                variant="outlined"
                color="error"
                onClick={() => setConfirming('delete')}
                data-testid="credentials-bulk-delete"
              >
                {t('issuing.list.delete')}
              </Button>
            </>
          ) : (
            <Button
              variant="outlined"
              color="secondary"
              startIcon={<FileDownloadOutlined />}
              onClick={() => void exportCsv()}
              disabled={exporting || data.total === 0}
              data-testid="credentials-export"
            >
              {t('issuing.list.export')}
            </Button>
          )}
        </Box>
        <Card>
          <CredentialsTable
            rows={rows}
            sort={sort}
            onSort={setSort}
            selected={selected}
            onToggle={toggle}
            onToggleAll={() => setSelected(allSelected ? [] : rows.map((row) => row.id))}
            onOpen={setViewing}
            onCopyLink={(credential) => void copyLink(credential)}
            empty={t('issuing.list.noMatch')}
          />
        </Card>
        {pageCount > 1 && (
          <Box sx={{ display: 'flex', justifyContent: 'center', mt: 3 }}>
            <PagePagination
              count={pageCount}
              page={page}
              siblingCount={0}
              onChange={(_, next) => setParam('page', next > 1 ? String(next) : '')}
              data-testid="credentials-pagination"
            />
          </Box>
        )}
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={t('pages.credentials')}
        subtitle={t('pages.credentialsSubtitle')}
        actions={data && data.total > 0 ? issueButton : undefined}
      />
      {organization && <KybBanner organization={organization} sx={{ mb: 3 }} />}
      {content}
      <Suspense fallback={null}>
        {confirmMounted && (
          <ConfirmDialog
            open={confirming !== null}
            title={t(confirming === 'delete' ? 'issuing.list.deleteTitle' : 'issuing.list.revokeTitle', {
              count: selected.length,
            })}
            body={t(confirming === 'delete' ? 'issuing.list.deleteBody' : 'issuing.list.revokeBody', {
              count: selected.length,
            })}
            confirmLabel={t(confirming === 'delete' ? 'issuing.list.delete' : 'issuing.list.revoke')}
            busy={revoke.isPending || remove.isPending}
            onCancel={() => setConfirming(null)}
            onConfirm={() => void confirm()}
            confirmTestId={confirming === 'delete' ? 'credentials-delete-confirm' : 'credentials-revoke-confirm'}
          />
        )}
        {detailMounted && (
          <CredentialDetailDialog
            organizationId={organizationId}
            credential={viewing}
            onClose={() => setViewing(null)}
            onCopyLink={(credential) => void copyLink(credential)}
          />
        )}
      </Suspense>
    </>
  );
}
