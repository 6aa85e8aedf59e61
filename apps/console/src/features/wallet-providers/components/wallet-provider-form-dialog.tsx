import {
  type CreateWalletProviderRequest,
  ProblemCode,
  WALLET_PROVIDER_NAME_MAX,
  WALLET_PROVIDER_PEM_MAX,
  zCreateWalletProviderRequest,
} from '@cp/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { PemCertificateField } from '../../../components/certificate-list.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { problemMessageKeys } from '../../../lib/problem-messages.ts';

interface WalletProviderFormValues {
  name: string;
  certificate_pem: string;
}

const emptyValues: WalletProviderFormValues = { name: '', certificate_pem: '' };
const zPem = zCreateWalletProviderRequest.shape.certificate_pem;

/**
 * Add a trusted wallet provider: a name and its certificate (pasted, or read from a .pem / .cer file), the
 * provider's CA or its attestation signing certificate. The API's refusals show on the certificate field: one it
 * cannot take (422 WALLET_PROVIDER_INVALID, with its reason) or one already there (409 DUPLICATE).
 */
export function WalletProviderFormDialog({
  open,
  onClose,
  onSubmit,
}: {
  open: boolean;
  onClose: () => void;
  /** Resolves when added; rejects with the ApiError when not (the dialog shows why and stays open). */
  onSubmit: (body: CreateWalletProviderRequest) => Promise<void>;
}) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const form = useForm<WalletProviderFormValues>({ defaultValues: emptyValues, mode: 'onSubmit' });
  const { register, handleSubmit, formState, reset, setError } = form;
  const [formError, setFormError] = useState<string | null>(null);
  const errors = formState.errors;
  const required = t('validation.required');

  const showServerError = (error: unknown) => {
    if (!isApiError(error)) {
      setFormError(t('walletProviders.errors.create'));
    } else if (error.is(ProblemCode.WALLET_PROVIDER_LIMIT_REACHED)) {
      setFormError(t(problemMessageKeys[ProblemCode.WALLET_PROVIDER_LIMIT_REACHED]));
    } else if (error.is(ProblemCode.WALLET_PROVIDER_DUPLICATE)) {
      setError(
        'certificate_pem',
        { type: 'server', message: t('walletProviders.errors.duplicate') },
        { shouldFocus: true },
      );
    } else if (error.is(ProblemCode.WALLET_PROVIDER_INVALID)) {
      // What cannot be used, in the user's language, then the API's reason as it says it (technical English).
      const message = `${t('walletProviders.errors.invalid')}\n${error.problem?.detail ?? ''}`.trim();
      setError('certificate_pem', { type: 'server', message }, { shouldFocus: true });
    } else {
      setFormError(t('walletProviders.errors.create'));
    }
  };

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await onSubmit({ name: values.name.trim(), certificate_pem: values.certificate_pem.trim() });
      reset(emptyValues);
    } catch (error) {
      showServerError(error);
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
      <form noValidate onSubmit={submit} data-testid="wallet-provider-form">
        <DialogTitle id={titleId} sx={{ fontWeight: 600 }}>
          {t('walletProviders.form.title')}
        </DialogTitle>
        <DialogContent sx={{ pt: '8px !important', display: 'flex', flexDirection: 'column', gap: 2.5 }}>
          {formError && (
            <Alert severity="error" data-testid="wallet-provider-form-error">
              {formError}
            </Alert>
          )}
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('walletProviders.form.intro')}
          </Typography>
          <TextField
            label={t('walletProviders.form.name')}
            placeholder={t('walletProviders.form.namePlaceholder')}
            required
            fullWidth
            error={Boolean(errors.name)}
            helperText={errors.name?.message ?? t('walletProviders.form.nameHelper')}
            slotProps={{ htmlInput: { 'data-testid': 'wallet-provider-name', maxLength: WALLET_PROVIDER_NAME_MAX } }}
            {...register('name', { validate: (value) => value.trim().length > 0 || required })}
          />
          <PemCertificateField
            ns="walletProviders"
            form={form}
            name="certificate_pem"
            label={t('walletProviders.form.certificate')}
            testId="wallet-provider-certificate"
            maxLength={WALLET_PROVIDER_PEM_MAX}
            isPem={(text) => zPem.safeParse(text).success}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={close} disabled={formState.isSubmitting} color="secondary">
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={formState.isSubmitting}
            data-testid="wallet-provider-save"
          >
            {formState.isSubmitting ? t('common.saving') : t('walletProviders.form.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
