import type { Credential, CredentialStatus } from '@cp/contracts';
import AddOutlined from '@mui/icons-material/AddOutlined';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { credentialSchemaText } from '../../../lib/credential-schema-text.ts';
import { CREDENTIAL_STATUSES } from '../../../lib/credential-statuses.ts';
import { useIdentity } from '../../../lib/identity-context.ts';
import { notify } from '../../../lib/notifications.ts';
import { KybBanner } from '../../kyb/components/kyb-banner.tsx';
import { useDeleteCredentials } from '../api/delete-credentials.ts';
import { type CredentialFilters, useCredentials } from '../api/find-credentials.ts';
import { useSchemas } from '../api/find-issuable-schemas.ts';
import { useRevokeCredentials } from '../api/revoke-credentials.ts';
import { CredentialDetailDialog } from './credential-detail-dialog.tsx';
import { CredentialStatusChip } from './credential-status-chip.tsx';
import { formatDate } from './format.ts';

const pageFrom = (value: string | null) => {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
};

const isStatus = (value: string | null): value is CredentialStatus =>
  CREDENTIAL_STATUSES.includes(value as CredentialStatus);

/** /credentials/{orgId}: the issued credentials, 10 per page, filtered, with bulk revoke and delete. */
export function CredentialsPage() {
  const { t, i18n } = useTranslation();
  const { orgId } = useParams();
  const { current, organizations } = useIdentity();
  const organization = organizations.find((o) => o.id === orgId) ?? current;
  const organizationId = organization?.id ?? '';
  const [searchParams, setSearchParams] = useSearchParams();
  const page = pageFrom(searchParams.get('page'));
  const statusParam = searchParams.get('status');
  const filters: CredentialFilters = {
    status: isStatus(statusParam) ? statusParam : '',
    schema_id: searchParams.get('schema') ?? '',
    search: searchParams.get('search') ?? '',
  };
  const [searchText, setSearchText] = useState(filters.search ?? '');
  const credentials = useCredentials(organizationId || undefined, page, filters);
  const schemas = useSchemas(organizationId || undefined, 1, 100);
  const revoke = useRevokeCredentials(organizationId);
  const remove = useDeleteCredentials(organizationId);
  const [selected, setSelected] = useState<string[]>([]);
  const [confirming, setConfirming] = useState<'revoke' | 'delete' | null>(null);
  const [viewing, setViewing] = useState<Credential | null>(null);

  const setParam = (name: string, value: string) => {
    const next = new URLSearchParams(searchParams);
    if (value) next.set(name, value);
    else next.delete(name);
    if (name !== 'page') next.delete('page');
    setSearchParams(next);
    setSelected([]);
  };

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
      component={Link}
      to="/credentials/create"
      startIcon={<AddOutlined />}
      data-testid="issue-credentials-button"
    >
      {t('issuing.list.issue')}
    </Button>
  );

  const filtersBar = (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2 }}>
      <TextField
        select
        size="small"
        label={t('issuing.list.filterStatus')}
        value={filters.status}
        onChange={(event) => setParam('status', event.target.value)}
        sx={{ minWidth: 160, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}
        slotProps={{ htmlInput: { 'data-testid': 'credentials-filter-status' } }}
      >
        <MenuItem value="">{t('issuing.list.allStatuses')}</MenuItem>
        {CREDENTIAL_STATUSES.map((status) => (
          <MenuItem key={status} value={status}>
            {t(`issuing.status.${status}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('issuing.list.filterSchema')}
        value={schemas.data ? filters.schema_id : ''}
        onChange={(event) => setParam('schema', event.target.value)}
        sx={{ minWidth: 200, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}
        slotProps={{ htmlInput: { 'data-testid': 'credentials-filter-schema' } }}
      >
        <MenuItem value="">{t('issuing.list.allSchemas')}</MenuItem>
        {(schemas.data?.results ?? []).map((schema) => (
          <MenuItem key={schema.id} value={schema.id}>
            {credentialSchemaText(schema, i18n).name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        size="small"
        type="search"
        label={t('issuing.list.search')}
        value={searchText}
        onChange={(event) => setSearchText(event.target.value)}
        sx={{ flex: '1 1 220px' }}
        slotProps={{ htmlInput: { 'data-testid': 'credentials-filter-search' } }}
      />
    </Box>
  );

  const filtered = Boolean(filters.status || filters.schema_id || filters.search);

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
        {selected.length > 0 && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2, flexWrap: 'wrap' }}>
            <Typography variant="body2" sx={{ flex: 1 }}>
              {t('issuing.list.selected', { count: selected.length })}
            </Typography>
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
          </Box>
        )}
        <Card>
          <TableContainer>
            <Table data-testid="credentials-table" sx={{ minWidth: 860, '& th': { whiteSpace: 'nowrap' } }}>
              <TableHead>
                <TableRow>
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={allSelected}
                      indeterminate={!allSelected && rows.some((row) => selected.includes(row.id))}
                      onChange={() => setSelected(allSelected ? [] : rows.map((row) => row.id))}
                      slotProps={{ input: { 'aria-label': t('issuing.list.selectAll') } }}
                      data-testid="credentials-select-all"
                    />
                  </TableCell>
                  <TableCell>{t('issuing.list.recipient')}</TableCell>
                  <TableCell>{t('issuing.list.schema')}</TableCell>
                  <TableCell>{t('issuing.list.issuedAt')}</TableCell>
                  <TableCell>{t('issuing.list.expiresAt')}</TableCell>
                  <TableCell>{t('issuing.list.status')}</TableCell>
                  <TableCell align="right">{t('issuing.list.link')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={7} sx={{ textAlign: 'center', color: 'text.secondary', py: 4 }}>
                      {t('issuing.list.noMatch')}
                    </TableCell>
                  </TableRow>
                )}
                {rows.map((row) => (
                  <TableRow
                    key={row.id}
                    hover
                    data-testid={`credential-row-${row.id}`}
                    onClick={() => setViewing(row)}
                    sx={{ cursor: 'pointer' }}
                  >
                    <TableCell padding="checkbox" onClick={(event) => event.stopPropagation()}>
                      <Checkbox
                        checked={selected.includes(row.id)}
                        onChange={() => toggle(row.id)}
                        slotProps={{ input: { 'aria-label': t('issuing.list.select') } }}
                        data-testid={`credential-select-${row.id}`}
                      />
                    </TableCell>
                    <TableCell>
                      <Typography variant="body2" sx={{ fontWeight: 500 }}>
                        {row.recipient.first_name} {row.recipient.last_name}
                      </Typography>
                      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                        {row.recipient.email}
                      </Typography>
                    </TableCell>
                    <TableCell>
                      <Typography variant="body2">{credentialSchemaText(row.schema, i18n).name}</Typography>
                      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                        {row.name}
                      </Typography>
                    </TableCell>
                    <TableCell>{formatDate(row.issued_at ?? row.created_at, i18n.language)}</TableCell>
                    <TableCell>{formatDate(row.expired_at, i18n.language)}</TableCell>
                    <TableCell>
                      <CredentialStatusChip id={row.id} status={row.status} />
                    </TableCell>
                    <TableCell align="right" onClick={(event) => event.stopPropagation()}>
                      <Button
                        size="small"
                        color="secondary"
                        startIcon={<ContentCopyOutlined fontSize="small" />}
                        onClick={() => void copyLink(row)}
                        data-testid={`credential-copy-${row.id}`}
                        sx={{ whiteSpace: 'nowrap' }}
                      >
                        {t('issuing.list.copyLink')}
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Card>
        {pageCount > 1 && (
          <Box sx={{ display: 'flex', justifyContent: 'center', mt: 3 }}>
            <Pagination
              count={pageCount}
              page={page}
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
      <ConfirmDialog
        open={confirming !== null}
        title={t(confirming === 'delete' ? 'issuing.list.deleteTitle' : 'issuing.list.revokeTitle')}
        body={t(confirming === 'delete' ? 'issuing.list.deleteBody' : 'issuing.list.revokeBody', {
          count: selected.length,
        })}
        confirmLabel={t(confirming === 'delete' ? 'issuing.list.delete' : 'issuing.list.revoke')}
        busy={revoke.isPending || remove.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => void confirm()}
        confirmTestId={confirming === 'delete' ? 'credentials-delete-confirm' : 'credentials-revoke-confirm'}
      />
      <CredentialDetailDialog organizationId={organizationId} credential={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
