import { CREDENTIAL_SCHEMA_NAME_MAX, type CreateCredentialSchemaRequest, type CredentialSchema } from '@cp/contracts';
import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Skeleton from '@mui/material/Skeleton';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { RecordLoadError } from '../../../components/record-load-error.tsx';
import { RouterLink } from '../../../components/router-link.tsx';
import { type Translator, useTranslation } from '../../../i18n/index.ts';
import { credentialSchemaText } from '../../../lib/credential-schema-text.ts';
import { useIdentity } from '../../../lib/identity-context.ts';
import { notify } from '../../../lib/notifications.ts';
import { useCreateCredentialSchema } from '../api/create-credential-schema.ts';
import { useCredentialSchema } from '../api/get-credential-schema.ts';
import {
  CredentialSchemaForm,
  type CredentialSchemaFormValues,
  emptyCredentialSchemaForm,
} from './credential-schema-form.tsx';

/** A duplicate starts from the original's attributes under a new name; the original stays as it is. */
function duplicateValues(schema: CredentialSchema, i18n: Translator): CredentialSchemaFormValues {
  const text = credentialSchemaText(schema, i18n);
  return {
    name: i18n.t('credentialSchemas.form.copyOf', { name: text.name }).slice(0, CREDENTIAL_SCHEMA_NAME_MAX),
    description: text.description ?? '',
    attributes: schema.attributes.map((a) => ({ name: a.name, type: a.type, description: a.description ?? '' })),
  };
}

/** /schemas/create and /schemas/create/{id} (a duplicate of an existing schema). */
export function CreateCredentialSchemaPage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const navigate = useNavigate();
  const { current } = useIdentity();
  const organizationId = current?.id ?? '';
  const source = useCredentialSchema(organizationId || undefined, id);
  const create = useCreateCredentialSchema(organizationId);

  const publish = async (request: CreateCredentialSchemaRequest) => {
    try {
      await create.mutateAsync(request);
    } catch (error) {
      notify({ severity: 'error', title: t('catalogue.createSchema') });
      throw error;
    }
    notify({ severity: 'success', title: t('credentialSchemas.publishDialog.published') });
    navigate('/schemas');
  };

  const isLoadingSource = Boolean(id) && source.isPending && !source.isError;
  // The schema to duplicate could not be loaded: an empty form in its place would look like the duplicate.
  const sourceFailed = Boolean(id) && source.isError;
  const defaultValues = id && source.data ? duplicateValues(source.data, i18n) : emptyCredentialSchemaForm();

  return (
    <>
      <Button
        component={RouterLink}
        to="/schemas"
        startIcon={<ArrowBackOutlined />}
        color="secondary"
        size="small"
        sx={{ mb: 2, ml: -1 }}
      >
        {t('credentialSchemas.form.back')}
      </Button>
      <PageHeader
        title={id ? t('credentialSchemas.form.duplicateTitle') : t('credentialSchemas.form.createTitle')}
        subtitle={t('credentialSchemas.form.subtitle')}
      />
      {sourceFailed ? (
        <RecordLoadError
          kind="credentialSchema"
          error={source.error}
          catalogueKey="catalogue.getSchema"
          onRetry={() => void source.refetch()}
          testId="schema-form-error"
        />
      ) : isLoadingSource ? (
        <Card sx={{ p: 3 }} data-testid="schema-form-loading">
          <Skeleton variant="rounded" height={56} />
          <Skeleton variant="rounded" height={88} sx={{ mt: 2 }} />
          <Skeleton variant="rounded" height={40} sx={{ mt: 4 }} />
          <Skeleton variant="rounded" height={40} sx={{ mt: 2 }} />
        </Card>
      ) : (
        <CredentialSchemaForm
          // A new key when the source arrives, so the form starts from it.
          key={source.data?.id ?? 'new'}
          defaultValues={defaultValues}
          onPublish={publish}
          onCancel={() => navigate('/schemas')}
          isPublishing={create.isPending}
        />
      )}
    </>
  );
}
