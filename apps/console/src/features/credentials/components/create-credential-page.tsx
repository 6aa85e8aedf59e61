import type { CredentialMailPreviewRequest, CredentialSchema } from '@cp/contracts';
import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { RouterLink } from '../../../components/router-link.tsx';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { toSupportedLanguage } from '../../../i18n/detect-language.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { credentialSchemaText } from '../../../lib/credential-schema-text.ts';
import { useIdentity } from '../../../lib/identity-context.ts';
import { notify } from '../../../lib/notifications.ts';
import { useSearchParams } from '../../../lib/use-search-params.ts';
import { createCredentialWithRecipient } from '../api/create-credential-with-recipient.ts';
import { credentialsKey } from '../api/find-credentials.ts';
import { useImportedRecipientTotals } from '../api/find-imported-recipients.ts';
import { useSchemas } from '../api/find-issuable-schemas.ts';
import { useSchema } from '../api/get-schema.ts';
import { notifyRecipients } from '../api/notify-via-schema.ts';
import { type RecipientDraft, toClaims } from './claim-form.ts';
import { CredentialMailPreview } from './credential-mail-preview.tsx';
import { CsvImportDialog } from './csv-import-dialog.tsx';
import { ImportedRecipients } from './imported-recipients.tsx';
import { IssuingGate } from './issuing-gate.tsx';
import { RecipientDialog } from './recipient-dialog.tsx';
import { clearWizardDraft, readWizardDraft, writeWizardDraft } from './wizard-draft.ts';

type WizardStep = 1 | 2 | 3;
const stepFrom = (value: string | null): WizardStep => (value === '2' ? 2 : value === '3' ? 3 : 1);

let nextKey = 1;

/** /credentials/create?schema=&step=: choose a schema, add recipients (typed or CSV), write the e-mail, send. */
export function CreateCredentialPage() {
  const { current } = useIdentity();
  // Another organization chosen mid-way starts over: its draft, its imports, never the previous one's.
  return <CreateCredentialWizard key={current?.id ?? ''} />;
}

function CreateCredentialWizard() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { current } = useIdentity();
  const organizationId = current?.id ?? '';
  const verified = Boolean(current && (current.verified || current.verification_status === 'APPROVED'));
  const [searchParams, setSearchParams] = useSearchParams();
  const schemaId = searchParams.get('schema');
  const requestedStep = stepFrom(searchParams.get('step'));
  const step: WizardStep = schemaId ? requestedStep : 1;
  const [schemaPage, setSchemaPage] = useState(1);
  const schemas = useSchemas(organizationId || undefined, schemaPage);
  const chosen = useSchema(organizationId || undefined, schemaId);
  const schema: CredentialSchema | undefined =
    schemas.data?.results.find((s) => s.id === schemaId) ?? chosen.data ?? undefined;
  const attributes = schema?.attributes ?? [];

  // A reload on any step keeps what was entered (sessionStorage) and reads the imports back from the API.
  const [restored] = useState(() => readWizardDraft(organizationId, schemaId));
  const [name, setName] = useState(restored?.name ?? '');
  const [description, setDescription] = useState(restored?.description ?? '');
  const [nameTouched, setNameTouched] = useState(restored?.nameTouched ?? false);
  const [recipients, setRecipients] = useState<RecipientDraft[]>(() => {
    const list = restored?.recipients ?? [];
    nextKey = Math.max(nextKey, ...list.map((r) => r.key + 1));
    return list;
  });
  const [editing, setEditing] = useState<RecipientDraft | 'new' | null>(null);
  const [csvOpen, setCsvOpen] = useState(false);
  const [importIds, setImportIds] = useState<string[]>(restored?.importIds ?? []);
  const [message, setMessage] = useState(restored?.message ?? '');
  const [sending, setSending] = useState(false);
  const [recipientProblem, setRecipientProblem] = useState<string | null>(null);

  // Set once sent: a state update still pending then must not write the finished draft back.
  const sent = useRef(false);
  useEffect(() => {
    if (!organizationId || !schemaId || sent.current) return;
    writeWizardDraft(organizationId, {
      schemaId,
      name,
      description,
      nameTouched,
      message,
      recipients,
      importIds,
    });
  }, [organizationId, schemaId, name, description, nameTouched, message, recipients, importIds]);

  // Each import's recipients as the API has them (not the import's counters): exactly who will be e-mailed.
  const importTotals = useImportedRecipientTotals(organizationId, importIds);
  const importsLoaded = importTotals.every((q) => q.data);
  const importedCount = importTotals.reduce((sum, q) => sum + (q.data?.total ?? 0), 0);
  const firstImported = importTotals.find((q) => q.data?.results[0])?.data?.results[0];
  // The schema's name as the user reads it (a platform schema's in their language) is the default name.
  const schemaName = schema ? credentialSchemaText(schema, i18n).name : '';
  const credentialName = name.trim() || schemaName;

  const go = (next: WizardStep, id: string | null = schemaId) => {
    const params: Record<string, string> = {};
    if (id) params.schema = id;
    if (next > 1) params.step = String(next);
    setSearchParams(params);
  };

  const choose = (picked: CredentialSchema) => {
    if (picked.issue_disabled) return;
    if (picked.id !== schemaId) {
      setRecipients([]);
      setImportIds([]);
      if (!nameTouched) setName('');
    }
    go(1, picked.id);
  };

  const saveRecipient = (draft: Omit<RecipientDraft, 'key'>) => {
    if (editing === 'new') setRecipients((list) => [...list, { ...draft, key: nextKey++ }]);
    else if (editing)
      setRecipients((list) =>
        list.map((item) => (item.key === editing.key ? { ...draft, key: item.key, createdId: undefined } : item)),
      );
    setEditing(null);
  };

  const send = async () => {
    if (!schema) return;
    setSending(true);
    setRecipientProblem(null);
    try {
      for (const recipient of recipients) {
        if (recipient.createdId) continue;
        try {
          const created = await createCredentialWithRecipient(organizationId, {
            credential: {
              name: credentialName,
              description: description.trim() || undefined,
              schema_id: schema.id,
              claims: toClaims(recipient, attributes),
            },
            recipient: {
              email: recipient.email.trim(),
              first_name: recipient.first_name.trim(),
              last_name: recipient.last_name.trim(),
            },
          });
          setRecipients((list) =>
            list.map((item) => (item.key === recipient.key ? { ...item, createdId: created.id } : item)),
          );
          recipient.createdId = created.id;
        } catch (error) {
          const detail = isApiError(error) ? error.problem?.errors?.map((e) => `${e.path}: ${e.message}`) : null;
          setRecipientProblem(`${recipient.email}${detail && detail.length > 0 ? ` — ${detail.join(', ')}` : ''}`);
          notify({ severity: 'error', title: t('catalogue.createCredentialWithRecipient') });
          return;
        }
      }
      let queued: number;
      try {
        // Exactly this run's credentials, in the sender's console language.
        queued = await notifyRecipients(organizationId, {
          schema_id: schema.id,
          message: message.trim() || undefined,
          locale: toSupportedLanguage(i18n.language) ?? 'en',
          credentialIds: recipients.map((r) => r.createdId).filter((id): id is string => Boolean(id)),
          importIds,
        });
      } catch {
        notify({ severity: 'error', title: t('catalogue.notifyRecipients') });
        return;
      }
      sent.current = true;
      clearWizardDraft(organizationId);
      await queryClient.invalidateQueries({ queryKey: credentialsKey(organizationId) });
      notify({
        severity: 'success',
        title: queued > 0 ? t('issuing.wizard.sent', { count: queued }) : t('issuing.wizard.sentNone'),
      });
      navigate(`/credentials/${organizationId}`);
    } finally {
      setSending(false);
    }
  };

  const steps = [t('issuing.wizard.stepSchema'), t('issuing.wizard.stepRecipients'), t('issuing.wizard.stepSend')];
  const total = recipients.length + importedCount;
  const nameError = nameTouched && !credentialName ? t('issuing.validation.required') : undefined;
  const firstTyped = recipients[0];
  const previewRequest: CredentialMailPreviewRequest | null =
    schema && step === 3
      ? {
          schema_id: schema.id,
          name: credentialName,
          description: description.trim() || undefined,
          message: message.trim() || undefined,
          locale: toSupportedLanguage(i18n.language) ?? 'en',
          ...(firstTyped
            ? { recipient: { first_name: firstTyped.first_name.trim(), last_name: firstTyped.last_name.trim() } }
            : firstImported
              ? { credential_id: firstImported.id }
              : {}),
        }
      : null;

  if (current && !verified) {
    return (
      <>
        <PageHeader title={t('pages.credentialsCreate')} subtitle={t('pages.credentialsCreateSubtitle')} />
        <IssuingGate organization={current} />
      </>
    );
  }

  return (
    <>
      <PageHeader title={t('pages.credentialsCreate')} subtitle={t('pages.credentialsCreateSubtitle')} />
      <Stepper activeStep={step - 1} alternativeLabel sx={{ mb: 4 }}>
        {steps.map((label) => (
          <Step key={label}>
            <StepLabel>{label}</StepLabel>
          </Step>
        ))}
      </Stepper>

      {step === 1 && (
        <Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
            <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
              {t('issuing.wizard.chooseSchema')}
            </Typography>
            <Button
              component={RouterLink}
              to="/schemas/create"
              startIcon={<AddOutlined />}
              data-testid="wizard-create-schema"
            >
              {t('issuing.wizard.createSchema')}
            </Button>
          </Box>
          {schemas.isError && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {t('catalogue.getSchemaList')}
            </Alert>
          )}
          {!schemas.data && !schemas.isError && <Skeleton height={120} />}
          <Box
            role="radiogroup"
            aria-label={t('issuing.wizard.chooseSchema')}
            sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}
          >
            {(schemas.data?.results ?? []).map((item) => {
              const selected = item.id === schemaId;
              const text = credentialSchemaText(item, i18n);
              return (
                <Card
                  key={item.id}
                  role="radio"
                  aria-checked={selected}
                  aria-disabled={item.issue_disabled}
                  tabIndex={item.issue_disabled ? -1 : 0}
                  data-testid={`wizard-schema-${item.id}`}
                  onClick={() => choose(item)}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' || event.key === ' ') {
                      event.preventDefault();
                      choose(item);
                    }
                  }}
                  sx={{
                    p: 2.5,
                    cursor: item.issue_disabled ? 'not-allowed' : 'pointer',
                    opacity: item.issue_disabled ? 0.5 : 1,
                    borderColor: selected ? 'primary.main' : undefined,
                    outline: selected ? 2 : 0,
                    outlineColor: 'primary.main',
                  }}
                >
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5, flexWrap: 'wrap' }}>
                    <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>
                      {text.name}
                    </Typography>
                    {item.issue_disabled && <Chip size="small" label={t('issuing.wizard.verifyOnly')} />}
                  </Box>
                  {text.description && (
                    <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
                      {text.description}
                    </Typography>
                  )}
                  <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                    {item.attributes.map((a) => a.name).join(', ')}
                  </Typography>
                </Card>
              );
            })}
          </Box>
          {schemas.data && schemas.data.total > schemas.data.limit && (
            <Box sx={{ display: 'flex', justifyContent: 'center', mt: 3 }}>
              <Pagination
                count={Math.ceil(schemas.data.total / schemas.data.limit)}
                page={schemaPage}
                onChange={(_, next) => setSchemaPage(next)}
              />
            </Box>
          )}
        </Box>
      )}

      {step === 2 && schema && (
        <Box sx={{ display: 'grid', gap: 3 }}>
          <Card sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }}>
            <Typography variant="h6" component="h2">
              {t('issuing.wizard.details')}
            </Typography>
            <TextField
              label={t('issuing.wizard.name')}
              value={name}
              placeholder={schemaName}
              onChange={(e) => setName(e.target.value)}
              onBlur={() => setNameTouched(true)}
              error={Boolean(nameError)}
              helperText={nameError}
              slotProps={{ htmlInput: { 'data-testid': 'credential-name', maxLength: 200 } }}
            />
            <TextField
              label={t('issuing.wizard.description')}
              value={description}
              multiline
              minRows={2}
              onChange={(e) => setDescription(e.target.value)}
              slotProps={{ htmlInput: { 'data-testid': 'credential-description', maxLength: 1000 } }}
            />
          </Card>
          <Card sx={{ p: { xs: 2, sm: 3 } }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2, flexWrap: 'wrap' }}>
              <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
                {t('issuing.recipients.title')}
              </Typography>
              <Button
                variant="outlined"
                color="secondary"
                startIcon={<UploadFileOutlined />}
                onClick={() => setCsvOpen(true)}
                data-testid="csv-import-button"
              >
                {t('issuing.csv.button')}
              </Button>
              <Button
                variant="contained"
                startIcon={<AddOutlined />}
                onClick={() => setEditing('new')}
                data-testid="recipient-add"
              >
                {t('issuing.recipients.add')}
              </Button>
            </Box>
            {importIds.length > 1 && importedCount > 0 && (
              <Alert severity="success" sx={{ mb: 2 }} data-testid="csv-imported-count">
                {t('issuing.csv.imported', { count: importedCount })}
              </Alert>
            )}
            <ScrollRegion label={t('issuing.recipients.title')}>
              <Table size="small" data-testid="recipients-table" sx={{ minWidth: 520 }}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('issuing.recipients.email')}</TableCell>
                    <TableCell>{t('issuing.recipients.firstName')}</TableCell>
                    <TableCell>{t('issuing.recipients.lastName')}</TableCell>
                    <TableCell align="right">{t('issuing.recipients.actions')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {recipients.length === 0 && importIds.length === 0 && (
                    <TableRow>
                      <TableCell colSpan={4} sx={{ color: 'text.secondary', textAlign: 'center', py: 3 }}>
                        {t('issuing.recipients.none')}
                      </TableCell>
                    </TableRow>
                  )}
                  {recipients.map((recipient, index) => (
                    <TableRow key={recipient.key} data-testid={`recipient-row-${index}`}>
                      <TableCell sx={{ overflowWrap: 'anywhere' }}>{recipient.email}</TableCell>
                      <TableCell>{recipient.first_name}</TableCell>
                      <TableCell>{recipient.last_name}</TableCell>
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        <IconButton
                          size="small"
                          aria-label={t('issuing.recipients.edit')}
                          onClick={() => setEditing(recipient)}
                          data-testid={`recipient-edit-${index}`}
                          disabled={Boolean(recipient.createdId)}
                        >
                          <EditOutlined fontSize="small" />
                        </IconButton>
                        <IconButton
                          size="small"
                          aria-label={t('issuing.recipients.delete')}
                          onClick={() => setRecipients((list) => list.filter((item) => item.key !== recipient.key))}
                          data-testid={`recipient-delete-${index}`}
                          disabled={Boolean(recipient.createdId)}
                        >
                          <DeleteOutlined fontSize="small" />
                        </IconButton>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </ScrollRegion>
            {importIds.map((id, index) => (
              <ImportedRecipients key={id} organizationId={organizationId} importId={id} index={index} />
            ))}
          </Card>
        </Box>
      )}

      {step === 3 && schema && (
        <Box
          sx={{
            display: 'grid',
            gap: 3,
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(280px, 1fr) minmax(0, 632px)' },
            alignItems: 'start',
          }}
        >
          <Card sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }}>
            <Typography variant="h6" component="h2">
              {t('issuing.wizard.message')}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="wizard-summary">
              {importsLoaded
                ? t('issuing.wizard.summary', { count: total, name: credentialName })
                : t('issuing.recipients.importLoading')}
            </Typography>
            <TextField
              label={t('issuing.wizard.messageLabel')}
              value={message}
              multiline
              minRows={4}
              onChange={(e) => setMessage(e.target.value)}
              slotProps={{ htmlInput: { 'data-testid': 'email-message', maxLength: 2000 } }}
            />
            {recipientProblem && (
              <Alert severity="error" data-testid="wizard-send-error">
                {t('catalogue.createCredentialWithRecipient')}: {recipientProblem}
              </Alert>
            )}
          </Card>
          <CredentialMailPreview organizationId={organizationId} request={previewRequest} />
        </Box>
      )}

      {step > 1 && !schema && <Skeleton height={160} />}

      <Box sx={{ display: 'flex', gap: 2, justifyContent: 'space-between', mt: 4, flexWrap: 'wrap' }}>
        <Button
          color="secondary"
          variant="outlined"
          onClick={() => (step === 1 ? navigate(`/credentials/${organizationId}`) : go((step - 1) as WizardStep))}
          data-testid="wizard-back"
          disabled={sending}
        >
          {step === 1 ? t('common.cancel') : t('issuing.wizard.back')}
        </Button>
        {step < 3 ? (
          <Button
            variant="contained"
            disabled={step === 1 ? !schema || schema.issue_disabled : !credentialName || total === 0}
            onClick={() => go((step + 1) as WizardStep)}
            data-testid="wizard-next"
          >
            {t('issuing.wizard.next')}
          </Button>
        ) : (
          <Button
            variant="contained"
            disabled={!verified || sending || !importsLoaded || total === 0}
            onClick={() => void send()}
            data-testid="wizard-send"
          >
            {sending ? t('issuing.wizard.sending') : t('issuing.wizard.send')}
          </Button>
        )}
      </Box>

      <RecipientDialog
        open={editing !== null}
        attributes={attributes}
        initial={editing === 'new' ? null : editing}
        onCancel={() => setEditing(null)}
        onSave={saveRecipient}
      />
      {schema && (
        <CsvImportDialog
          open={csvOpen}
          organizationId={organizationId}
          schemaId={schema.id}
          schemaName={schemaName}
          name={credentialName}
          description={description}
          onClose={(result) => {
            setCsvOpen(false);
            if (result && result.succeeded_count > 0) setImportIds((list) => [...new Set([...list, result.id])]);
          }}
        />
      )}
    </>
  );
}
