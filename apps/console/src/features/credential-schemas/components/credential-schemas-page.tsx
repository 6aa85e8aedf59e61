import type { CredentialSchema } from '@cp/contracts';
import AddOutlined from '@mui/icons-material/AddOutlined';
import SchemaOutlined from '@mui/icons-material/SchemaOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { RouterLink } from '../../../components/router-link.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { useIdentity } from '../../../lib/identity-context.ts';
import { notify } from '../../../lib/notifications.ts';
import { useSearchParams } from '../../../lib/use-search-params.ts';
import { useDeleteCredentialSchema } from '../api/delete-credential-schema.ts';
import { useCredentialSchemas } from '../api/find-credential-schemas.ts';
import { CredentialSchemaDialog } from './credential-schema-dialog.tsx';
import { CredentialSchemasTable } from './credential-schemas-table.tsx';
import { DeleteCredentialSchemaDialog } from './delete-credential-schema-dialog.tsx';

const pageFrom = (value: string | null) => {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
};

/** /schemas: the organization's schemas and the platform's, 10 per page (the page is in the address). */
export function CredentialSchemasPage() {
  const { t } = useTranslation();
  const { current } = useIdentity();
  const organizationId = current?.id ?? '';
  const [searchParams, setSearchParams] = useSearchParams();
  const page = pageFrom(searchParams.get('page'));
  const schemas = useCredentialSchemas(organizationId || undefined, page);
  const remove = useDeleteCredentialSchema(organizationId);
  const [viewing, setViewing] = useState<CredentialSchema | null>(null);
  const [deleting, setDeleting] = useState<CredentialSchema | null>(null);

  const data = schemas.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;
  const goTo = (next: number) => setSearchParams(next > 1 ? { page: String(next) } : {});

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      notify({ severity: 'success', title: t('credentialSchemas.deleteDialog.deleted') });
      // The last row of a page gone: show the page before it.
      if (data && data.results.length === 1 && page > 1) goTo(page - 1);
    } catch {
      notify({ severity: 'error', title: t('catalogue.deleteSchema') });
    } finally {
      setDeleting(null);
    }
  };

  const createButton = (
    <Button
      variant="contained"
      component={RouterLink}
      to="/schemas/create"
      startIcon={<AddOutlined />}
      data-testid="schemas-create-button"
    >
      {t('credentialSchemas.createButton')}
    </Button>
  );

  let content: ReactNode;
  if (!data) {
    content = schemas.isError ? (
      <Card sx={{ p: 3, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }} data-testid="schemas-error">
        <Typography variant="body2" sx={{ color: 'error.main', flex: 1 }}>
          {t('catalogue.getSchemaList')}
        </Typography>
        <Button variant="outlined" color="secondary" onClick={() => void schemas.refetch()}>
          {t('credentialSchemas.retry')}
        </Button>
      </Card>
    ) : (
      <Card sx={{ p: 3 }} data-testid="schemas-loading">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} variant="rounded" height={44} sx={{ mb: 1.5 }} />
        ))}
      </Card>
    );
  } else if (data.total === 0) {
    content = (
      <Box data-testid="schemas-empty">
        <EmptyState
          icon={<SchemaOutlined />}
          title={t('credentialSchemas.emptyTitle')}
          body={t('credentialSchemas.emptyBody')}
          action={
            <Button variant="outlined" component={RouterLink} to="/schemas/create" data-testid="schemas-empty-create">
              {t('credentialSchemas.createButton')}
            </Button>
          }
        />
      </Box>
    );
  } else {
    content = (
      <Card>
        <CredentialSchemasTable schemas={data.results} onView={setViewing} onDelete={setDeleting} />
        {pageCount > 1 && (
          <Box
            sx={{ display: 'flex', justifyContent: 'center', py: 2, borderTop: '1px solid', borderColor: 'divider' }}
          >
            <Pagination
              count={pageCount}
              page={Math.min(page, pageCount)}
              onChange={(_, next) => goTo(next)}
              shape="rounded"
              aria-label={t('credentialSchemas.pagination')}
              data-testid="schemas-pagination"
            />
          </Box>
        )}
      </Card>
    );
  }

  return (
    <>
      <PageHeader
        title={t('credentialSchemas.title')}
        subtitle={t('credentialSchemas.subtitle')}
        actions={createButton}
      />
      {content}
      <CredentialSchemaDialog schema={viewing} onClose={() => setViewing(null)} />
      <DeleteCredentialSchemaDialog
        schema={deleting}
        isDeleting={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete}
      />
    </>
  );
}
