import type { CreateVerificationRequest, CredentialSchema, Verification } from '@cp/contracts';
import { PAGE_SIZE_MAX } from '@cp/contracts';
import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { RecordLoadError } from '../../../components/record-load-error.tsx';
import { RouterLink } from '../../../components/router-link.tsx';
import { type Translator, useTranslation } from '../../../i18n/index.ts';
import { isNotFound } from '../../../lib/api-error.ts';
import { credentialSchemaText } from '../../../lib/credential-schema-text.ts';
import { useIdentity } from '../../../lib/identity-context.ts';
import { notify } from '../../../lib/notifications.ts';
import { useSearchParams } from '../../../lib/use-search-params.ts';
import { credentialSchemasQuery } from '../../credential-schemas/api/find-credential-schemas.ts';
import { useCreateVerification } from '../api/create-verification.ts';
import { useVerification } from '../api/get-verification.ts';
import { useUpdateVerification } from '../api/update-verification.ts';
import { VerificationForm } from './verification-form.tsx';
import {
  emptyVerificationForm,
  type VerificationSchemaOption,
  verificationFormValues,
} from './verification-form-values.ts';

function schemaOption(schema: CredentialSchema, i18n: Translator): VerificationSchemaOption {
  return {
    id: schema.id,
    name: credentialSchemaText(schema, i18n).name,
    // Verify-only schemas (KYC) cannot be issued but are what verifications are for.
    isVerifyOnly: schema.issue_disabled,
    attributes: schema.attributes.map(({ id, name, type }) => ({ id, name, type })),
  };
}

/** The schemas to choose from; the edited verification's own schema is always among them. */
function schemaOptions(schemas: CredentialSchema[], verification: Verification | undefined, i18n: Translator) {
  const options = schemas.map((schema) => schemaOption(schema, i18n));
  // A verification of another issuer's credential type has no schema.
  const own = verification?.schema;
  if (own && !options.some((option) => option.id === own.id)) {
    options.unshift({
      id: own.id,
      name: credentialSchemaText(own, i18n).name,
      isVerifyOnly: false,
      attributes: own.attributes,
    });
  }
  return options;
}

/** /verifications/create and /verifications/edit/{id}: one form; editing loads the verification first. */
export function VerificationFormPage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const { current } = useIdentity();
  const organizationId = current?.id ?? '';
  const isEdit = Boolean(id);
  const verification = useVerification(organizationId || undefined, id);
  // The organization's schemas and the platform's, shared with the schema pages' cache.
  const schemas = useQuery({
    ...credentialSchemasQuery(organizationId, 1, PAGE_SIZE_MAX),
    enabled: Boolean(organizationId),
  });
  const create = useCreateVerification(organizationId);
  const update = useUpdateVerification(organizationId, id ?? '');

  const save = async (request: CreateVerificationRequest) => {
    try {
      if (isEdit) await update.mutateAsync(request);
      else await create.mutateAsync(request);
    } catch (error) {
      notify({
        severity: 'error',
        // Deleted (in another tab, by a colleague) while it was being edited: saving again cannot help.
        title:
          isEdit && isNotFound(error)
            ? t('errors.gone.verification.title')
            : t(isEdit ? 'catalogue.updateVerification' : 'catalogue.createVerification'),
      });
      throw error;
    }
    notify({ severity: 'success', title: t(isEdit ? 'verifications.form.updated' : 'verifications.form.created') });
    navigate('/verifications');
  };

  let content: React.ReactNode;
  if (isEdit && !verification.data) {
    content = verification.isError ? (
      <RecordLoadError
        kind="verification"
        error={verification.error}
        catalogueKey="catalogue.getVerifications"
        onRetry={() => void verification.refetch()}
        testId="verification-form-error"
      />
    ) : (
      // Spec §2: the verification is loaded first; nothing to show meanwhile.
      <Box data-testid="verification-form-loading" sx={{ minHeight: 240 }} />
    );
  } else {
    const defaultType = searchParams.get('type') === 'SINGLE' ? 'SINGLE' : 'MULTI';
    content = (
      <VerificationForm
        // A new form once the verification has loaded, so it starts from it; a refetch keeps what was typed.
        key={verification.data?.id ?? 'new'}
        defaultValues={
          verification.data ? verificationFormValues(verification.data) : emptyVerificationForm(defaultType)
        }
        schemas={schemaOptions(schemas.data?.results ?? [], verification.data, i18n)}
        isLoadingSchemas={schemas.isPending}
        onSave={save}
        onCancel={() => navigate('/verifications')}
        isSaving={create.isPending || update.isPending}
        submitLabel={isEdit ? t('common.save') : t('verifications.form.submitCreate')}
      />
    );
  }

  return (
    <>
      <Button
        component={RouterLink}
        to="/verifications"
        startIcon={<ArrowBackOutlined />}
        color="secondary"
        size="small"
        sx={{ mb: 2, ml: -1 }}
      >
        {t('verifications.form.back')}
      </Button>
      <PageHeader
        title={isEdit ? t('verifications.form.editTitle') : t('verifications.form.createTitle')}
        subtitle={isEdit ? t('verifications.form.editSubtitle') : t('verifications.form.createSubtitle')}
      />
      {content}
    </>
  );
}
