import {
  type CreateTrustAnchorRequest,
  ProblemCode,
  TRUST_ANCHOR_NAME_MAX,
  TRUST_ANCHOR_PEM_MAX,
  type TrustAnchorKind,
  trustAnchorKinds,
  zCreateTrustAnchorRequest,
} from '@cp/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useState } from 'react';
import { Controller, type UseFormReturn, useForm, useWatch } from 'react-hook-form';
import { PemCertificateField } from '../../../components/certificate-list.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { problemMessageKeys } from '../../../lib/problem-messages.ts';

export interface TrustAnchorFormValues {
  kind: TrustAnchorKind;
  name: string;
  certificate_pem: string;
  list_url: string;
  signer_certificate_pem: string;
}

type PemFieldName = 'certificate_pem' | 'signer_certificate_pem';
type Field = 'name' | PemFieldName | 'list_url';

const [certificateRequest, listRequest] = zCreateTrustAnchorRequest.options;
const zPem = certificateRequest.shape.certificate_pem;
const zListUrl = listRequest.shape.list_url;

const emptyValues: TrustAnchorFormValues = {
  kind: 'CERTIFICATE',
  name: '',
  certificate_pem: '',
  list_url: '',
  signer_certificate_pem: '',
};

/** The request POST /api/trust-anchors takes, for the kind chosen. */
export function toTrustAnchorRequest(values: TrustAnchorFormValues): CreateTrustAnchorRequest {
  const name = values.name.trim();
  return values.kind === 'CERTIFICATE'
    ? { kind: 'CERTIFICATE', name, certificate_pem: values.certificate_pem.trim() }
    : {
        kind: 'TRUSTED_LIST',
        name,
        list_url: values.list_url.trim(),
        signer_certificate_pem: values.signer_certificate_pem.trim(),
      };
}

/** What the API refused, by field: the sentence shown before its reason. */
const INVALID_LEADS: Record<Exclude<Field, 'name'>, string> = {
  certificate_pem: 'trustAnchors.errors.invalid.CERTIFICATE',
  list_url: 'trustAnchors.errors.invalid.TRUSTED_LIST',
  signer_certificate_pem: 'trustAnchors.errors.invalid.SIGNER',
};

const FIELDS: Field[] = ['name', 'certificate_pem', 'list_url', 'signer_certificate_pem'];
const fieldOfPath = (path: string): Field | null => {
  const head =
    path
      .replace(/^\//, '')
      .replace(/^body[./]/, '')
      .split(/[./[]/)[0] ?? '';
  return (FIELDS as string[]).includes(head) ? (head as Field) : null;
};

/**
 * Add a trust anchor: a CA certificate (pasted, or read from a .pem / .cer file), or a trusted list (ETSI TS
 * 119 602 LoTE) by its URL with the operator's signing certificate. The API's refusals show on their field: a
 * certificate it cannot take (422 TRUST_ANCHOR_INVALID, with its reason), one already there (409 DUPLICATE).
 */
export function TrustAnchorFormDialog({
  open,
  onClose,
  onSubmit,
}: {
  open: boolean;
  onClose: () => void;
  /** Resolves when added; rejects with the ApiError when not (the dialog shows why and stays open). */
  onSubmit: (body: CreateTrustAnchorRequest) => Promise<void>;
}) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const form = useForm<TrustAnchorFormValues>({ defaultValues: emptyValues, mode: 'onSubmit' });
  const { register, control, handleSubmit, formState, reset, setError, clearErrors } = form;
  const kind = useWatch({ control, name: 'kind' });
  const [formError, setFormError] = useState<string | null>(null);
  const errors = formState.errors;
  const required = t('validation.required');

  const showServerError = (error: unknown, values: TrustAnchorFormValues) => {
    if (!isApiError(error)) {
      setFormError(t('trustAnchors.errors.create'));
      return;
    }
    // The field the API refused: the certificate, or for a list its URL (reading or checking it failed).
    const mainField: Field = values.kind === 'CERTIFICATE' ? 'certificate_pem' : 'list_url';
    if (error.is(ProblemCode.TRUST_ANCHOR_LIMIT_REACHED)) {
      setFormError(t(problemMessageKeys[ProblemCode.TRUST_ANCHOR_LIMIT_REACHED]));
      return;
    }
    if (error.is(ProblemCode.TRUST_ANCHOR_DUPLICATE)) {
      setError(
        mainField,
        { type: 'server', message: t(`trustAnchors.errors.duplicate.${values.kind}`) },
        { shouldFocus: true },
      );
      return;
    }
    // TRUST_ANCHOR_INVALID: what cannot be used, in the user's language, then the API's reason as it says it
    // (technical English: "not a CA certificate", "the list's signature does not verify").
    const explain = (field: Field, reason: string) =>
      error.is(ProblemCode.TRUST_ANCHOR_INVALID) && field !== 'name' ? `${t(INVALID_LEADS[field])}\n${reason}` : reason;
    const fieldErrors = (error.problem?.errors ?? []).flatMap(({ path, message }) => {
      const field = fieldOfPath(path);
      return field ? [{ field, message }] : [];
    });
    if (fieldErrors.length > 0) {
      fieldErrors.forEach(({ field, message }, index) => {
        setError(field, { type: 'server', message: explain(field, message) }, { shouldFocus: index === 0 });
      });
      return;
    }
    if (error.is(ProblemCode.TRUST_ANCHOR_INVALID)) {
      const message = explain(mainField, error.problem?.detail ?? '').trim();
      setError(mainField, { type: 'server', message }, { shouldFocus: true });
      return;
    }
    setFormError(t('trustAnchors.errors.create'));
  };

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await onSubmit(toTrustAnchorRequest(values));
      reset(emptyValues);
    } catch (error) {
      showServerError(error, values);
    }
  });

  const close = () => {
    reset(emptyValues);
    setFormError(null);
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={formState.isSubmitting ? undefined : close}
      fullScreen={fullScreen}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
    >
      <form noValidate onSubmit={submit} data-testid="trust-anchor-form">
        <DialogTitle id={titleId} sx={{ fontWeight: 600 }}>
          {t('trustAnchors.form.title')}
        </DialogTitle>
        <DialogContent sx={{ pt: '8px !important', display: 'flex', flexDirection: 'column', gap: 2.5 }}>
          {formError && (
            <Alert severity="error" data-testid="trust-anchor-form-error">
              {formError}
            </Alert>
          )}
          <Controller
            control={control}
            name="kind"
            render={({ field }) => (
              <ToggleButtonGroup
                exclusive
                fullWidth
                color="primary"
                size="small"
                value={field.value}
                onChange={(_, next: TrustAnchorKind | null) => {
                  if (!next) return;
                  field.onChange(next);
                  clearErrors();
                  setFormError(null);
                }}
                aria-label={t('trustAnchors.form.kind')}
                sx={{ '& .MuiToggleButton-root': { textTransform: 'none', fontWeight: 600, py: 1 } }}
              >
                {trustAnchorKinds.map((option) => (
                  <ToggleButton key={option} value={option} data-testid={`trust-anchor-kind-${option}`}>
                    {t(`trustAnchors.kinds.${option}`)}
                  </ToggleButton>
                ))}
              </ToggleButtonGroup>
            )}
          />
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: -1 }}>
            {t(`trustAnchors.form.kindHelper.${kind}`)}
          </Typography>
          <TextField
            label={t('trustAnchors.form.name')}
            placeholder={t(`trustAnchors.form.namePlaceholder.${kind}`)}
            required
            fullWidth
            error={Boolean(errors.name)}
            helperText={errors.name?.message ?? t('trustAnchors.form.nameHelper')}
            slotProps={{ htmlInput: { 'data-testid': 'trust-anchor-name', maxLength: TRUST_ANCHOR_NAME_MAX } }}
            {...register('name', { validate: (value) => value.trim().length > 0 || required })}
          />
          {kind === 'CERTIFICATE' ? (
            <PemField form={form} name="certificate_pem" label={t('trustAnchors.form.certificate')} />
          ) : (
            <>
              <TextField
                label={t('trustAnchors.form.listUrl')}
                placeholder="https://trust.example.org/lote.jwt"
                required
                fullWidth
                type="url"
                error={Boolean(errors.list_url)}
                helperText={errors.list_url?.message ?? t('trustAnchors.form.listUrlHelper')}
                slotProps={{
                  htmlInput: { 'data-testid': 'trust-anchor-list-url', maxLength: 2000, spellCheck: false },
                  formHelperText: { sx: { whiteSpace: 'pre-line' } },
                }}
                {...register('list_url', {
                  validate: (value) => {
                    const text = value.trim();
                    if (!text) return required;
                    return zListUrl.safeParse(text).success || t('validation.url');
                  },
                })}
              />
              <PemField form={form} name="signer_certificate_pem" label={t('trustAnchors.form.signerCertificate')} />
            </>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={close} disabled={formState.isSubmitting} color="secondary">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={formState.isSubmitting} data-testid="trust-anchor-save">
            {formState.isSubmitting ? t('common.saving') : t('trustAnchors.form.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** A PEM certificate of the form: the anchor's own, or a trusted list's signer. */
function PemField({
  form,
  name,
  label,
}: {
  form: UseFormReturn<TrustAnchorFormValues>;
  name: PemFieldName;
  label: string;
}) {
  return (
    <PemCertificateField
      ns="trustAnchors"
      form={form}
      name={name}
      label={label}
      testId={name === 'certificate_pem' ? 'trust-anchor-certificate' : 'trust-anchor-signer-certificate'}
      maxLength={TRUST_ANCHOR_PEM_MAX}
      isPem={(text) => zPem.safeParse(text).success}
    />
  );
}
