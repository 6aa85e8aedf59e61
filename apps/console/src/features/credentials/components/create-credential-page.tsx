import type { CredentialImport, CredentialSchema } from '@cp/contracts';
import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import QrCode2Outlined from '@mui/icons-material/QrCode2Outlined';
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
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { toSupportedLanguage } from '../../../i18n/detect-language.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { credentialSchemaText } from '../../../lib/credential-schema-text.ts';
import { useIdentity } from '../../../lib/identity-context.ts';
import { notify } from '../../../lib/notifications.ts';
import { KybBanner } from '../../kyb/components/kyb-banner.tsx';
import { createCredentialWithRecipient } from '../api/create-credential-with-recipient.ts';
import { credentialsKey } from '../api/find-credentials.ts';
import { useSchemas } from '../api/find-issuable-schemas.ts';
import { useSchema } from '../api/get-schema.ts';
import { notifyViaSchema } from '../api/notify-via-schema.ts';
import { type RecipientDraft, toClaims } from './claim-form.ts';
import { CsvImportDialog } from './csv-import-dialog.tsx';
import { RecipientDialog } from './recipient-dialog.tsx';

type WizardStep = 1 | 2 | 3;
const stepFrom = (value: string | null): WizardStep => (value === '2' ? 2 : value === '3' ? 3 : 1);

let nextKey = 1;

/** /credentials/create?schema=&step=: choose a schema, add recipients (typed or CSV), write the e-mail, send. */
export function CreateCredentialPage() {
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

  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [nameTouched, setNameTouched] = useState(false);
  const [recipients, setRecipients] = useState<RecipientDraft[]>([]);
  const [editing, setEditing] = useState<RecipientDraft | 'new' | null>(null);
  const [csvOpen, setCsvOpen] = useState(false);
  const [imports, setImports] = useState<CredentialImport[]>([]);
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);
  const [recipientProblem, setRecipientProblem] = useState<string | null>(null);

  const importedCount = imports.reduce((sum, item) => sum + item.succeeded_count, 0);
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
      setImports([]);
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
      try {
        // The e-mail goes out in the sender's console language.
        await notifyViaSchema(organizationId, {
          schema_id: schema.id,
          message: message.trim() || undefined,
          locale: toSupportedLanguage(i18n.language) ?? 'en',
        });
      } catch {
        notify({ severity: 'error', title: t('catalogue.notifyRecipients') });
        return;
      }
      await queryClient.invalidateQueries({ queryKey: credentialsKey(organizationId) });
      notify({ severity: 'success', title: t('issuing.wizard.sent') });
      navigate(`/credentials/${organizationId}`);
    } finally {
      setSending(false);
    }
  };

  const steps = [t('issuing.wizard.stepSchema'), t('issuing.wizard.stepRecipients'), t('issuing.wizard.stepSend')];
  const total = recipients.length + importedCount;
  const nameError = nameTouched && !credentialName ? t('issuing.validation.required') : undefined;
  const previewRecipient = recipients[0]?.first_name || t('issuing.preview.recipientPlaceholder');

  return (
    <>
      <PageHeader title={t('pages.credentialsCreate')} subtitle={t('pages.credentialsCreateSubtitle')} />
      {current && !verified && <KybBanner organization={current} sx={{ mb: 3 }} />}
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
            <Typography variant="h6" sx={{ flex: 1 }}>
              {t('issuing.wizard.chooseSchema')}
            </Typography>
            <Button
              component={Link}
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
            <Typography variant="h6">{t('issuing.wizard.details')}</Typography>
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
              <Typography variant="h6" sx={{ flex: 1 }}>
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
            {importedCount > 0 && (
              <Alert severity="success" sx={{ mb: 2 }} data-testid="csv-imported-count">
                {t('issuing.csv.imported', { count: importedCount })}
              </Alert>
            )}
            <TableContainer>
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
                  {recipients.length === 0 && (
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
            </TableContainer>
          </Card>
        </Box>
      )}

      {step === 3 && schema && (
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
          <Card sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }}>
            <Typography variant="h6">{t('issuing.wizard.message')}</Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('issuing.wizard.summary', { count: total, name: credentialName })}
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
            {!verified && <Alert severity="warning">{t('issuing.wizard.notVerified')}</Alert>}
          </Card>
          <Card variant="outlined" sx={{ p: { xs: 2, sm: 3 }, bgcolor: 'grey.50' }} data-testid="email-preview">
            <Typography variant="overline" sx={{ color: 'text.secondary' }}>
              {t('issuing.preview.title')}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
              {t('issuing.preview.subject', { organization: current?.name ?? '', name: credentialName })}
            </Typography>
            <Box sx={{ bgcolor: 'background.paper', borderRadius: 2, p: 3, display: 'grid', gap: 1.5 }}>
              <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
                {current?.name}
              </Typography>
              <Typography variant="body2">{t('issuing.preview.greeting', { name: previewRecipient })}</Typography>
              <Typography variant="body2">
                {t('issuing.preview.body', { organization: current?.name ?? '', name: credentialName })}
              </Typography>
              {message.trim() && (
                <Typography
                  variant="body2"
                  sx={{ whiteSpace: 'pre-wrap', borderLeft: 3, borderColor: 'divider', pl: 1.5 }}
                  data-testid="email-preview-message"
                >
                  {message.trim()}
                </Typography>
              )}
              <Box sx={{ textAlign: 'center', my: 1 }}>
                <Button variant="contained" tabIndex={-1} sx={{ pointerEvents: 'none' }}>
                  {t('issuing.preview.claim')}
                </Button>
              </Box>
              <Box
                sx={{
                  mx: 'auto',
                  width: 120,
                  height: 120,
                  border: 1,
                  borderColor: 'divider',
                  borderRadius: 1,
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                  color: 'text.secondary',
                }}
              >
                <QrCode2Outlined sx={{ fontSize: 72 }} />
              </Box>
              <Typography variant="caption" sx={{ color: 'text.secondary', textAlign: 'center' }}>
                {t('issuing.preview.expiry')}
              </Typography>
            </Box>
          </Card>
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
            disabled={!verified || sending || total === 0}
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
            if (result && result.succeeded_count > 0) setImports((list) => [...list, result]);
          }}
        />
      )}
    </>
  );
}
