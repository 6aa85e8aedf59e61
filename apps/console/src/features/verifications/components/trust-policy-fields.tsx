import { type TrustPolicy, trustPolicies, VERIFICATION_TRUSTED_ISSUERS_MAX, zTrustedIssuer } from '@cp/contracts';
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import PlaylistAddCheckOutlined from '@mui/icons-material/PlaylistAddCheckOutlined';
import PublicOutlined from '@mui/icons-material/PublicOutlined';
import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Controller, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { RouterLink } from '../../../components/router-link.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { ChoiceCard } from './choice-card.tsx';
import type { VerificationFormValues } from './verification-form-values.ts';

const POLICY_ICONS: Record<TrustPolicy, ReactNode> = {
  PLATFORM_VERIFIED: <VerifiedOutlined />,
  NAMED_ISSUERS: <PlaylistAddCheckOutlined />,
  TRUST_ANCHORS: <AccountTreeOutlined />,
  ANY_ISSUER: <PublicOutlined />,
};

/**
 * Which issuers the verification admits (its `trust_policy`): organizations verified on this platform (the
 * default), issuers the user names, issuers certified by the organization's trust anchors, or any issuer. Any
 * issuer is saved only after the user confirms what it means: the result then says nothing about who issued.
 */
export function TrustPolicyFields() {
  const { t } = useTranslation();
  const { control, register, getValues, setValue, formState, trigger } = useFormContext<VerificationFormValues>();
  const issuers = useFieldArray({ control, name: 'trusted_issuers' });
  const policy = useWatch({ control, name: 'trust_policy' });
  const errors = formState.errors;
  const message = (key: string) => t(`verifications.validation.${key}`);

  const choose = (next: TrustPolicy, onChange: (value: TrustPolicy) => void) => {
    if (next === policy) return;
    onChange(next);
    // Every switch to "any issuer" asks again.
    if (next === 'ANY_ISSUER') setValue('any_issuer_confirmed', false);
    // The first issuer field is there at once: naming issuers means naming at least one.
    if (next === 'NAMED_ISSUERS' && getValues('trusted_issuers').length === 0) issuers.append({ value: '' });
    if (formState.isSubmitted) void trigger('trust_policy');
  };

  return (
    <>
      <Controller
        control={control}
        name="trust_policy"
        rules={{
          validate: (value) =>
            value !== 'NAMED_ISSUERS' || getValues('trusted_issuers').length > 0 || message('issuersRequired'),
        }}
        render={({ field }) => (
          <Box
            role="radiogroup"
            aria-label={t('verifications.form.trustPolicy')}
            sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1.5 }}
          >
            {trustPolicies.map((option) => (
              <ChoiceCard
                key={option}
                name={field.name}
                value={option}
                selected={field.value === option}
                onSelect={() => choose(option, field.onChange)}
                icon={POLICY_ICONS[option]}
                title={t(`verifications.trustPolicies.${option}`)}
                helper={t(`verifications.form.trustPolicyHelper.${option}`)}
                badge={option === 'PLATFORM_VERIFIED' ? t('verifications.form.default') : undefined}
                tone={option === 'ANY_ISSUER' ? 'warning' : 'primary'}
                testId={`trust-policy-${option}`}
              />
            ))}
          </Box>
        )}
      />

      {policy === 'NAMED_ISSUERS' && (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }} data-testid="trusted-issuers">
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('verifications.form.trustedIssuersHelper')}
          </Typography>
          {issuers.fields.map((field, index) => (
            <Box key={field.id} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
              <TextField
                label={t('verifications.form.trustedIssuer', { number: index + 1 })}
                placeholder="did:web:issuer.example.com"
                size="small"
                fullWidth
                error={Boolean(errors.trusted_issuers?.[index]?.value)}
                helperText={errors.trusted_issuers?.[index]?.value?.message}
                slotProps={{
                  htmlInput: {
                    'data-testid': `trusted-issuer-${index}`,
                    autoCapitalize: 'none',
                    autoCorrect: 'off',
                    spellCheck: false,
                    maxLength: 500,
                  },
                }}
                {...register(`trusted_issuers.${index}.value`, {
                  validate: (value) => {
                    const text = value.trim();
                    if (!text) return t('validation.required');
                    if (!zTrustedIssuer.safeParse(text).success) return message('trustedIssuer');
                    const duplicate = getValues('trusted_issuers').some(
                      (other, otherIndex) => otherIndex < index && other.value.trim() === text,
                    );
                    return duplicate ? message('duplicateIssuer') : true;
                  },
                })}
              />
              <Tooltip title={t('verifications.form.removeTrustedIssuer')}>
                <IconButton
                  aria-label={t('verifications.form.removeTrustedIssuer')}
                  onClick={() => {
                    issuers.remove(index);
                    if (formState.isSubmitted) void trigger('trust_policy');
                  }}
                  data-testid={`trusted-issuer-remove-${index}`}
                >
                  <DeleteOutlineOutlined fontSize="small" />
                </IconButton>
              </Tooltip>
            </Box>
          ))}
          <Box>
            <Button
              startIcon={<AddOutlined />}
              variant="outlined"
              color="secondary"
              onClick={() => {
                issuers.append({ value: '' });
                if (formState.isSubmitted) void trigger('trust_policy');
              }}
              disabled={issuers.fields.length >= VERIFICATION_TRUSTED_ISSUERS_MAX}
              data-testid="trusted-issuer-add"
            >
              {t('verifications.form.addTrustedIssuer')}
            </Button>
          </Box>
        </Box>
      )}

      {policy === 'TRUST_ANCHORS' && (
        <Alert severity="info" variant="outlined" data-testid="trust-anchors-hint">
          {t('verifications.form.trustAnchorsHint')}{' '}
          <Link component={RouterLink} to="/trust-anchors" data-testid="trust-anchors-link" sx={{ fontWeight: 600 }}>
            {t('verifications.form.manageTrustAnchors')}
          </Link>
        </Alert>
      )}

      {policy === 'ANY_ISSUER' && (
        <Alert severity="warning" data-testid="any-issuer-warning">
          <AlertTitle sx={{ fontWeight: 600 }}>{t('verifications.form.anyIssuerWarningTitle')}</AlertTitle>
          {t('verifications.form.anyIssuerWarning')}
          <Controller
            control={control}
            name="any_issuer_confirmed"
            rules={{
              validate: (value) => getValues('trust_policy') !== 'ANY_ISSUER' || value || message('anyIssuerConfirm'),
            }}
            render={({ field, fieldState }) => (
              <Box sx={{ mt: 1 }}>
                <FormControlLabel
                  sx={{ alignItems: 'flex-start', mr: 0 }}
                  control={
                    <Checkbox
                      checked={field.value}
                      onChange={(event) => field.onChange(event.target.checked)}
                      color="warning"
                      size="small"
                      sx={{ mt: -0.5 }}
                      slotProps={{ input: { 'data-testid': 'any-issuer-confirm' } as object }}
                    />
                  }
                  label={<Typography variant="body2">{t('verifications.form.anyIssuerConfirm')}</Typography>}
                />
                {fieldState.error && (
                  <FormHelperText error data-testid="any-issuer-confirm-error">
                    {fieldState.error.message}
                  </FormHelperText>
                )}
              </Box>
            )}
          />
        </Alert>
      )}

      {errors.trust_policy && (
        <FormHelperText error data-testid="trust-policy-error" sx={{ mt: -1 }}>
          {errors.trust_policy.message}
        </FormHelperText>
      )}
    </>
  );
}
