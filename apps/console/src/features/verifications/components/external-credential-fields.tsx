import {
  credentialSchemaAttributeTypes,
  EXTERNAL_CLAIMS_MAX,
  EXTERNAL_VCT_VALUES_MAX,
  zExternalClaimName,
  zExternalCredentialType,
  zExternalMdocCredentialType,
} from '@cp/contracts';
import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useRef } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from '../../../i18n/index.ts';
import {
  emptyClaim,
  parseClaimPath,
  parseMdocClaimPath,
  type VerificationFormValues,
} from './verification-form-values.ts';

const zVct = zExternalCredentialType.shape.vct_values.element;
const zDocType = zExternalMdocCredentialType.shape.doctype_value;

const noAutocorrect = { autoCapitalize: 'none', autoCorrect: 'off', spellCheck: false } as const;

/**
 * A credential type of another issuer: its SD-JWT VC types (`vct`, one or more URIs) or its mdoc doctype, and
 * the claims to ask for, each with a name (what rules and the history call it), its path in the credential
 * (typed dotted: `address.country`; an mdoc's `namespace.element`) and its type (how rule values are compared).
 */
export function ExternalCredentialFields() {
  const { t } = useTranslation();
  const { control, register, getValues, setValue, formState } = useFormContext<VerificationFormValues>();
  const vcts = useFieldArray({ control, name: 'vct_values' });
  const claims = useFieldArray({ control, name: 'claims' });
  const watchedClaims = useWatch({ control, name: 'claims' });
  const isMdoc = useWatch({ control, name: 'format' }) === 'mso_mdoc';
  // The names as last rendered: a name's change event arrives with the new value only.
  const previousNames = useRef<string[]>([]);
  previousNames.current = (watchedClaims ?? []).map((claim) => claim.name.trim());
  const errors = formState.errors;
  const message = (key: string) => t(`verifications.validation.${key}`);
  const required = t('validation.required');

  /** A renamed claim keeps its place in "claims to see" and in the rules that name it; a new one is shown. */
  const renameClaim = (index: number, next: string) => {
    const previous = previousNames.current[index] ?? '';
    const name = next.trim();
    if (previous === name) return;
    const sharedName = getValues('claims').some((claim, other) => other !== index && claim.name.trim() === previous);
    const requested = getValues('requested');
    const wasShown = previous === '' || requested.includes(previous);
    let updated = sharedName ? requested : requested.filter((key) => key !== previous);
    if (name && wasShown && !updated.includes(name)) updated = [...updated, name];
    setValue('requested', updated);
    if (previous && !sharedName) {
      getValues('rules').forEach((rule, rowIndex) => {
        if (rule.attribute === previous) setValue(`rules.${rowIndex}.attribute`, name);
      });
    }
  };

  const removeClaim = (index: number) => {
    const name = previousNames.current[index] ?? '';
    const sharedName = getValues('claims').some((claim, other) => other !== index && claim.name.trim() === name);
    if (!sharedName)
      setValue(
        'requested',
        getValues('requested').filter((key) => key !== name),
      );
    claims.remove(index);
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="external-credential">
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <Typography variant="subtitle1" component="h3">
          {t('verifications.form.vctTitle')}
        </Typography>
        {isMdoc && (
          <TextField
            label={t('verifications.form.doctype')}
            placeholder="org.iso.18013.5.1.mDL"
            size="small"
            fullWidth
            required
            error={Boolean(errors.doctype_value)}
            helperText={errors.doctype_value?.message ?? t('verifications.form.doctypeHelper')}
            slotProps={{ htmlInput: { 'data-testid': 'doctype-value', maxLength: 200, ...noAutocorrect } }}
            {...register('doctype_value', {
              validate: (value) => {
                if (getValues('format') !== 'mso_mdoc') return true;
                if (!value.trim()) return required;
                return zDocType.safeParse(value.trim()).success ? true : message('doctype');
              },
            })}
          />
        )}
        {!isMdoc &&
          vcts.fields.map((field, index) => (
            <Box key={field.id} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
              <TextField
                label={t('verifications.form.vct', { number: index + 1 })}
                placeholder="https://issuer.example.com/credentials/pid"
                size="small"
                fullWidth
                required
                error={Boolean(errors.vct_values?.[index]?.value)}
                helperText={
                  errors.vct_values?.[index]?.value?.message ?? (index === 0 ? t('verifications.form.vctHelper') : '')
                }
                slotProps={{ htmlInput: { 'data-testid': `vct-value-${index}`, maxLength: 500, ...noAutocorrect } }}
                {...register(`vct_values.${index}.value`, {
                  validate: (value) => {
                    if (getValues('format') === 'mso_mdoc') return true;
                    const text = value.trim();
                    if (!text) return required;
                    if (!zVct.safeParse(text).success) return message('vct');
                    const duplicate = getValues('vct_values').some(
                      (other, otherIndex) => otherIndex < index && other.value.trim() === text,
                    );
                    return duplicate ? message('duplicateVct') : true;
                  },
                })}
              />
              <Tooltip title={t('verifications.form.removeVct')}>
                <span>
                  <IconButton
                    aria-label={t('verifications.form.removeVct')}
                    onClick={() => vcts.remove(index)}
                    disabled={vcts.fields.length <= 1}
                    data-testid={`vct-remove-${index}`}
                  >
                    <DeleteOutlineOutlined fontSize="small" />
                  </IconButton>
                </span>
              </Tooltip>
            </Box>
          ))}
        <Box sx={{ display: isMdoc ? 'none' : undefined }}>
          <Button
            startIcon={<AddOutlined />}
            variant="outlined"
            color="secondary"
            size="small"
            onClick={() => vcts.append({ value: '' })}
            disabled={vcts.fields.length >= EXTERNAL_VCT_VALUES_MAX}
            data-testid="vct-add"
          >
            {t('verifications.form.addVct')}
          </Button>
        </Box>
      </Box>

      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <Box>
          <Typography variant="subtitle1" component="h3">
            {t('verifications.form.externalClaims')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.25 }}>
            {t('verifications.form.externalClaimsHelper')}
          </Typography>
        </Box>
        {claims.fields.map((field, index) => {
          const claimErrors = errors.claims?.[index];
          const number = index + 1;
          return (
            <Box
              key={field.id}
              data-testid={`external-claim-row-${index}`}
              sx={{
                display: 'grid',
                gridTemplateColumns: {
                  xs: 'minmax(0,1fr) 40px',
                  md: 'minmax(0,1fr) minmax(0,1.2fr) minmax(0,0.8fr) 40px',
                },
                gridTemplateAreas: {
                  xs: '"label remove" "name name" "path path" "type type"',
                  md: '"name path type remove"',
                },
                gap: 1.5,
                alignItems: 'start',
                p: { xs: 2, md: 0 },
                border: { xs: '1px solid', md: 'none' },
                borderColor: { xs: 'divider' },
                borderRadius: 2,
              }}
            >
              <Typography
                variant="subtitle2"
                sx={{ display: { xs: 'block', md: 'none' }, gridArea: 'label', alignSelf: 'center' }}
              >
                {t('verifications.form.externalClaimLabel', { number })}
              </Typography>
              <TextField
                label={t('verifications.form.claimName')}
                placeholder="country"
                size="small"
                fullWidth
                required
                sx={{ gridArea: 'name' }}
                error={Boolean(claimErrors?.name)}
                helperText={claimErrors?.name?.message}
                slotProps={{ htmlInput: { 'data-testid': `external-claim-name-${index}`, maxLength: 64 } }}
                {...register(`claims.${index}.name`, {
                  onChange: (event: { target: { value: string } }) => renameClaim(index, event.target.value),
                  validate: (value) => {
                    const text = value.trim();
                    if (!text) return required;
                    if (!zExternalClaimName.safeParse(text).success) return message('claimName');
                    const duplicate = getValues('claims').some(
                      (other, otherIndex) => otherIndex < index && other.name.trim() === text,
                    );
                    return duplicate ? message('duplicateClaim') : true;
                  },
                })}
              />
              <TextField
                label={t('verifications.form.claimPath')}
                placeholder={isMdoc ? 'org.iso.18013.5.1.family_name' : 'address.country'}
                size="small"
                fullWidth
                required
                sx={{ gridArea: 'path' }}
                error={Boolean(claimErrors?.path)}
                helperText={
                  claimErrors?.path?.message ??
                  (index === 0
                    ? t(isMdoc ? 'verifications.form.mdocClaimPathHelper' : 'verifications.form.claimPathHelper')
                    : '')
                }
                slotProps={{
                  htmlInput: { 'data-testid': `external-claim-path-${index}`, maxLength: 400, ...noAutocorrect },
                }}
                {...register(`claims.${index}.path`, {
                  validate: (value) => {
                    if (!value.trim()) return required;
                    if (getValues('format') === 'mso_mdoc') {
                      return parseMdocClaimPath(value) ? true : message('mdocClaimPath');
                    }
                    return parseClaimPath(value) ? true : message('claimPath');
                  },
                })}
              />
              <TextField
                select
                label={t('verifications.form.claimType')}
                size="small"
                fullWidth
                sx={{ gridArea: 'type' }}
                slotProps={{
                  select: { native: true },
                  htmlInput: { 'data-testid': `external-claim-type-${index}` },
                  inputLabel: { shrink: true },
                }}
                {...register(`claims.${index}.type`)}
              >
                {credentialSchemaAttributeTypes.map((type) => (
                  <option key={type} value={type}>
                    {t(`verifications.attributeTypes.${type}`)}
                  </option>
                ))}
              </TextField>
              <Tooltip title={t('verifications.form.removeExternalClaim', { number })}>
                <Box component="span" sx={{ gridArea: 'remove', justifySelf: 'end' }}>
                  <IconButton
                    aria-label={t('verifications.form.removeExternalClaim', { number })}
                    onClick={() => removeClaim(index)}
                    disabled={claims.fields.length <= 1}
                    data-testid={`external-claim-remove-${index}`}
                    sx={{ mt: { xs: -0.5, md: 0 } }}
                  >
                    <DeleteOutlineOutlined fontSize="small" />
                  </IconButton>
                </Box>
              </Tooltip>
            </Box>
          );
        })}
        <Box>
          <Button
            startIcon={<AddOutlined />}
            variant="outlined"
            color="secondary"
            size="small"
            onClick={() => claims.append(emptyClaim())}
            disabled={claims.fields.length >= EXTERNAL_CLAIMS_MAX}
            data-testid="external-claim-add"
          >
            {t('verifications.form.addExternalClaim')}
          </Button>
        </Box>
      </Box>
    </Box>
  );
}
