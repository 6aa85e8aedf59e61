import {
  type CreateVerificationRequest,
  type CredentialSchemaAttributeType,
  VERIFICATION_DESCRIPTION_MAX,
  VERIFICATION_NAME_MAX,
  VERIFICATION_RULE_VALUE_MAX,
  VERIFICATION_RULES_MAX,
  VERIFICATION_TRUSTED_ISSUERS_MAX,
  type VerificationType,
  verificationOperators,
  zTrustedIssuer,
} from '@cp/contracts';
import AddOutlined from '@mui/icons-material/AddOutlined';
import AllInclusiveOutlined from '@mui/icons-material/AllInclusiveOutlined';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import LooksOneOutlined from '@mui/icons-material/LooksOneOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Radio from '@mui/material/Radio';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from '../../../i18n/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { describeRule } from './check-messages.ts';
import { ruleValueError, ruleValueErrorFromServer } from './rule-value.ts';
import {
  emptyRule,
  formFieldOfPath,
  toVerificationRequest,
  type VerificationFormValues,
  type VerificationSchemaOption,
} from './verification-form-values.ts';

function Section({ title, helper, children }: { title: string; helper: string; children: ReactNode }) {
  return (
    <Box
      sx={{
        p: { xs: 2, sm: 3 },
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', md: '240px minmax(0, 1fr)' },
        gap: { xs: 2, md: 4 },
      }}
    >
      <Box>
        <Typography variant="subtitle2" component="h2">
          {title}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
          {helper}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>{children}</Box>
    </Box>
  );
}

const TYPE_ICONS: Record<VerificationType, ReactNode> = {
  MULTI: <AllInclusiveOutlined />,
  SINGLE: <LooksOneOutlined />,
};

/** The value input fits the attribute: a number field, a date, yes / no, or text. */
function valueInputProps(type: CredentialSchemaAttributeType | undefined) {
  switch (type) {
    case 'NUMBER':
      // Text with a numeric keyboard: a number input would hide what was typed when it is not a number.
      return { type: 'text', inputMode: 'decimal' as const };
    case 'DATETIME':
      return { type: 'date' };
    case 'EMAIL':
      return { type: 'email', inputMode: 'email' as const };
    case 'URL':
      return { type: 'url', inputMode: 'url' as const };
    default:
      return { type: 'text' };
  }
}

/**
 * The verification form of /verifications/create and /verifications/edit/{id}: name, schema, single-use or
 * reusable, rules checked against the attribute's type as the API checks them, trusted issuers and the
 * claims the verifier wants to see. A failed save keeps what was typed; the API's field errors (422
 * `errors[].path`) show on their field.
 */
export function VerificationForm({
  defaultValues,
  schemas,
  isLoadingSchemas,
  onSave,
  onCancel,
  isSaving,
  submitLabel,
}: {
  defaultValues: VerificationFormValues;
  schemas: VerificationSchemaOption[];
  isLoadingSchemas: boolean;
  /** Resolves when saved; rejects with the ApiError when not (the caller tells the user). */
  onSave: (request: CreateVerificationRequest) => Promise<void>;
  onCancel: () => void;
  isSaving: boolean;
  submitLabel: string;
}) {
  const { t, i18n } = useTranslation();
  const { register, control, handleSubmit, formState, getValues, setValue, setError, trigger } =
    useForm<VerificationFormValues>({
      defaultValues,
      // Errors first appear on Save, then follow the typing.
      mode: 'onSubmit',
      reValidateMode: 'onChange',
    });
  const rules = useFieldArray({ control, name: 'rules' });
  const issuers = useFieldArray({ control, name: 'trusted_issuers' });
  const schemaId = useWatch({ control, name: 'schema_id' });
  const watchedRules = useWatch({ control, name: 'rules' });
  const errors = formState.errors;
  const required = t('validation.required');
  const schema = schemas.find((option) => option.id === schemaId);
  const attributes = schema?.attributes ?? [];
  const attributeType = (id: string) => attributes.find((attribute) => attribute.id === id)?.type;
  const ruleAttributeIds = new Set((watchedRules ?? []).map((rule) => rule.attribute_id).filter(Boolean));

  const validationMessage = (key: string) => t(`verifications.validation.${key}`);

  // The preview: what holders are asked for, in words.
  const watchedType = useWatch({ control, name: 'type' });
  const watchedClaims = useWatch({ control, name: 'requested_attribute_ids' });
  const issuerCount = useWatch({ control, name: 'trusted_issuers' })?.length ?? 0;
  const listFormat = new Intl.ListFormat(i18n.language, { type: 'conjunction' });
  const previewRules = (watchedRules ?? []).flatMap((rule) => {
    const attribute = attributes.find((candidate) => candidate.id === rule.attribute_id);
    if (!attribute || !rule.value.trim()) return [];
    const value =
      attribute.type === 'BOOLEAN' ? t(`verifications.form.${rule.value === 'true' ? 'true' : 'false'}`) : rule.value;
    return [{ attribute: attribute.name, operator: rule.operator, value: value.trim() }];
  });
  const previewClaims = attributes
    .filter((attribute) => ruleAttributeIds.has(attribute.id) || (watchedClaims ?? []).includes(attribute.id))
    .map((attribute) => attribute.name);

  const showServerErrors = (error: unknown) => {
    if (!isApiError(error)) return;
    // The API answers CREDENTIAL_SCHEMA_NOT_FOUND (the brief's SCHEMA_NOT_FOUND is accepted too).
    if (error.problem?.code?.endsWith('SCHEMA_NOT_FOUND')) {
      setError('schema_id', { message: validationMessage('schemaNotFound') }, { shouldFocus: true });
      return;
    }
    let first = true;
    for (const { path, message } of error.problem?.errors ?? []) {
      const field = formFieldOfPath(path);
      if (!field) continue;
      const known = ruleValueErrorFromServer(message);
      setError(field, { type: 'server', message: known ? validationMessage(known) : message }, { shouldFocus: first });
      first = false;
    }
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      await onSave(toVerificationRequest(values, schema));
    } catch (error) {
      showServerErrors(error);
    }
  });

  const changeSchema = (id: string) => {
    // Rules and claims belong to a schema: another schema starts over, showing all of its claims.
    rules.replace([]);
    const next = schemas.find((option) => option.id === id);
    setValue('requested_attribute_ids', next?.attributes.map((attribute) => attribute.id) ?? []);
  };

  return (
    <Card component="form" noValidate onSubmit={onSubmit} data-testid="verification-form">
      <Section title={t('verifications.form.details')} helper={t('verifications.form.detailsHelper')}>
        <TextField
          label={t('verifications.form.name')}
          placeholder={t('verifications.form.namePlaceholder')}
          required
          fullWidth
          error={Boolean(errors.name)}
          helperText={errors.name?.message}
          slotProps={{ htmlInput: { 'data-testid': 'verification-name', maxLength: VERIFICATION_NAME_MAX } }}
          {...register('name', { validate: (value) => value.trim().length > 0 || required })}
        />
        <TextField
          label={t('verifications.form.description')}
          fullWidth
          multiline
          minRows={2}
          error={Boolean(errors.description)}
          helperText={errors.description?.message ?? t('verifications.form.descriptionHelper')}
          slotProps={{
            htmlInput: { 'data-testid': 'verification-description', maxLength: VERIFICATION_DESCRIPTION_MAX },
          }}
          {...register('description')}
        />
      </Section>
      <Divider />
      <Section title={t('verifications.form.credential')} helper={t('verifications.form.credentialHelper')}>
        <TextField
          select
          label={t('verifications.form.schema')}
          required
          fullWidth
          disabled={isLoadingSchemas && schemas.length === 0}
          error={Boolean(errors.schema_id)}
          helperText={errors.schema_id?.message}
          slotProps={{
            select: { native: true },
            htmlInput: { 'data-testid': 'verification-schema' },
            inputLabel: { shrink: true },
          }}
          {...register('schema_id', {
            validate: (value) => Boolean(value) || required,
            onChange: (event: { target: { value: string } }) => changeSchema(event.target.value),
          })}
        >
          <option value="" disabled>
            {isLoadingSchemas ? t('common.loading') : t('verifications.form.schemaPlaceholder')}
          </option>
          {schemas.map((option) => (
            <option key={option.id} value={option.id}>
              {option.isVerifyOnly ? t('verifications.form.verifyOnlySchema', { name: option.name }) : option.name}
            </option>
          ))}
        </TextField>
        <Controller
          control={control}
          name="type"
          render={({ field }) => (
            <Box
              role="radiogroup"
              aria-label={t('verifications.form.type')}
              sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1.5 }}
            >
              {(['MULTI', 'SINGLE'] as const).map((type) => {
                const selected = field.value === type;
                return (
                  <Box
                    key={type}
                    component="label"
                    data-testid={`verification-type-${type}`}
                    data-selected={selected}
                    sx={{
                      display: 'flex',
                      gap: 1.5,
                      alignItems: 'flex-start',
                      p: 2,
                      borderRadius: 2,
                      cursor: 'pointer',
                      border: '1px solid',
                      borderColor: selected ? 'primary.main' : 'divider',
                      bgcolor: selected ? 'primary.25' : 'background.paper',
                      boxShadow: selected ? (theme) => `0 0 0 1px ${theme.palette.primary.main}` : 'none',
                      transition: 'border-color 120ms, background-color 120ms',
                      '&:hover': { borderColor: selected ? 'primary.main' : 'grey.400' },
                    }}
                  >
                    <Box
                      sx={{
                        width: 36,
                        height: 36,
                        flexShrink: 0,
                        borderRadius: '50%',
                        display: 'grid',
                        placeItems: 'center',
                        bgcolor: selected ? 'primary.100' : 'grey.100',
                        color: selected ? 'primary.700' : 'text.secondary',
                      }}
                    >
                      {TYPE_ICONS[type]}
                    </Box>
                    <Box sx={{ flex: 1, minWidth: 0 }}>
                      <Typography variant="subtitle2">{t(`verifications.types.${type}`)}</Typography>
                      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.25 }}>
                        {t(`verifications.form.typeHelper.${type}`)}
                      </Typography>
                    </Box>
                    <Radio
                      checked={selected}
                      onChange={() => field.onChange(type)}
                      value={type}
                      name={field.name}
                      size="small"
                      sx={{ m: -1 }}
                      slotProps={{ input: { 'aria-label': t(`verifications.types.${type}`) } }}
                    />
                  </Box>
                );
              })}
            </Box>
          )}
        />
      </Section>
      <Divider />
      <Section title={t('verifications.form.rules')} helper={t('verifications.form.rulesHelper')}>
        {!schema && (
          <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="verification-rules-no-schema">
            {t('verifications.form.chooseSchemaFirst')}
          </Typography>
        )}
        {schema && rules.fields.length === 0 && (
          <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="verification-rules-none">
            {t('verifications.form.noRules')}
          </Typography>
        )}
        {rules.fields.map((field, index) => {
          const ruleErrors = errors.rules?.[index];
          const number = index + 1;
          const type = attributeType(watchedRules?.[index]?.attribute_id ?? '');
          const valueField = register(`rules.${index}.value`, {
            validate: (value) => {
              const attribute = attributeType(getValues(`rules.${index}.attribute_id`));
              if (!attribute) return true;
              const error = ruleValueError(attribute, value);
              return error ? validationMessage(error) : true;
            },
            maxLength: {
              value: VERIFICATION_RULE_VALUE_MAX,
              message: t('common.maxLength', { count: VERIFICATION_RULE_VALUE_MAX }),
            },
          });
          return (
            <Box
              key={field.id}
              data-testid={`rule-row-${index}`}
              sx={{
                display: 'grid',
                gridTemplateColumns: {
                  xs: 'minmax(0,1fr) 40px',
                  md: 'minmax(0,1.2fr) minmax(0,0.8fr) minmax(0,1.2fr) 40px',
                },
                gridTemplateAreas: {
                  xs: '"label remove" "attribute attribute" "operator operator" "value value"',
                  md: '"attribute operator value remove"',
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
                {t('verifications.form.ruleLabel', { number })}
              </Typography>
              <TextField
                select
                label={t('verifications.form.attribute')}
                size="small"
                fullWidth
                sx={{ gridArea: 'attribute' }}
                error={Boolean(ruleErrors?.attribute_id)}
                helperText={ruleErrors?.attribute_id?.message}
                slotProps={{
                  select: { native: true },
                  htmlInput: { 'data-testid': `rule-attribute-${index}` },
                  inputLabel: { shrink: true },
                }}
                {...register(`rules.${index}.attribute_id`, {
                  validate: (value) => Boolean(value) || validationMessage('required'),
                  onChange: (event: { target: { value: string } }) => {
                    // A yes / no value starts as yes; any other type starts empty.
                    setValue(`rules.${index}.value`, attributeType(event.target.value) === 'BOOLEAN' ? 'true' : '');
                    if (formState.isSubmitted) void trigger(`rules.${index}.value`);
                  },
                })}
              >
                <option value="" disabled>
                  {t('verifications.form.attributePlaceholder')}
                </option>
                {attributes.map((attribute) => (
                  <option key={attribute.id} value={attribute.id}>
                    {attribute.name}
                  </option>
                ))}
              </TextField>
              <TextField
                select
                label={t('verifications.form.operator')}
                size="small"
                fullWidth
                sx={{ gridArea: 'operator' }}
                error={Boolean(ruleErrors?.operator)}
                helperText={ruleErrors?.operator?.message}
                slotProps={{
                  select: { native: true },
                  htmlInput: { 'data-testid': `rule-operator-${index}` },
                  inputLabel: { shrink: true },
                }}
                {...register(`rules.${index}.operator`)}
              >
                {verificationOperators.map((operator) => (
                  <option key={operator} value={operator}>
                    {t(`verifications.operators.${operator}`)}
                  </option>
                ))}
              </TextField>
              {type === 'BOOLEAN' ? (
                <TextField
                  select
                  label={t('verifications.form.value')}
                  size="small"
                  fullWidth
                  sx={{ gridArea: 'value' }}
                  error={Boolean(ruleErrors?.value)}
                  helperText={ruleErrors?.value?.message}
                  slotProps={{
                    select: { native: true },
                    htmlInput: { 'data-testid': `rule-value-${index}` },
                    inputLabel: { shrink: true },
                  }}
                  {...valueField}
                >
                  <option value="true">{t('verifications.form.true')}</option>
                  <option value="false">{t('verifications.form.false')}</option>
                </TextField>
              ) : (
                <TextField
                  label={t('verifications.form.value')}
                  size="small"
                  fullWidth
                  disabled={!type}
                  sx={{ gridArea: 'value' }}
                  error={Boolean(ruleErrors?.value)}
                  helperText={ruleErrors?.value?.message}
                  slotProps={{
                    htmlInput: { 'data-testid': `rule-value-${index}`, ...valueInputProps(type) },
                    inputLabel: type === 'DATETIME' ? { shrink: true } : undefined,
                  }}
                  {...valueField}
                />
              )}
              <Tooltip title={t('verifications.form.removeRule', { number })}>
                <Box component="span" sx={{ gridArea: 'remove', justifySelf: 'end' }}>
                  <IconButton
                    aria-label={t('verifications.form.removeRule', { number })}
                    onClick={() => rules.remove(index)}
                    data-testid={`rule-remove-${index}`}
                    sx={{ mt: { xs: -0.5, md: 0 } }}
                  >
                    <DeleteOutlineOutlined fontSize="small" />
                  </IconButton>
                </Box>
              </Tooltip>
            </Box>
          );
        })}
        {schema && (
          <Box>
            <Button
              startIcon={<AddOutlined />}
              variant="outlined"
              color="secondary"
              onClick={() => rules.append(emptyRule())}
              disabled={rules.fields.length >= VERIFICATION_RULES_MAX || attributes.length === 0}
              data-testid="rule-add"
            >
              {t('verifications.form.addRule')}
            </Button>
          </Box>
        )}
      </Section>
      <Divider />
      <Section title={t('verifications.form.claims')} helper={t('verifications.form.claimsHelper')}>
        {!schema ? (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('verifications.form.chooseSchemaFirst')}
          </Typography>
        ) : (
          <Controller
            control={control}
            name="requested_attribute_ids"
            rules={{
              validate: (ids) =>
                ids.length > 0 ||
                getValues('rules').some((rule) => rule.attribute_id) ||
                validationMessage('claimsRequired'),
            }}
            render={({ field, fieldState }) => (
              <Box>
                <Box
                  sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}
                  data-testid="verification-claims"
                >
                  {attributes.map((attribute) => {
                    const byRule = ruleAttributeIds.has(attribute.id);
                    const checked = byRule || field.value.includes(attribute.id);
                    return (
                      <FormControlLabel
                        key={attribute.id}
                        sx={{ minWidth: 0, mr: 0, '& .MuiFormControlLabel-label': { overflowWrap: 'anywhere' } }}
                        control={
                          <Checkbox
                            checked={checked}
                            disabled={byRule}
                            onChange={(event) =>
                              field.onChange(
                                event.target.checked
                                  ? [...field.value, attribute.id]
                                  : field.value.filter((id) => id !== attribute.id),
                              )
                            }
                            slotProps={{ input: { 'data-testid': `claim-${attribute.name}` } as object }}
                          />
                        }
                        label={
                          <Box component="span">
                            {attribute.name}
                            {byRule && (
                              <Typography component="span" variant="caption" sx={{ color: 'text.secondary', ml: 1 }}>
                                {t('verifications.form.neededByRule')}
                              </Typography>
                            )}
                          </Box>
                        }
                      />
                    );
                  })}
                </Box>
                {fieldState.error && (
                  <FormHelperText error data-testid="verification-claims-error">
                    {fieldState.error.message}
                  </FormHelperText>
                )}
              </Box>
            )}
          />
        )}
      </Section>
      <Divider />
      <Section title={t('verifications.form.trustedIssuers')} helper={t('verifications.form.trustedIssuersHelper')}>
        {issuers.fields.length === 0 && (
          <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="trusted-issuers-none">
            {t('verifications.form.anyIssuer')}
          </Typography>
        )}
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
                  if (!text) return required;
                  if (!zTrustedIssuer.safeParse(text).success) return validationMessage('trustedIssuer');
                  const duplicate = getValues('trusted_issuers').some(
                    (other, otherIndex) => otherIndex < index && other.value.trim() === text,
                  );
                  return duplicate ? validationMessage('duplicateIssuer') : true;
                },
              })}
            />
            <Tooltip title={t('verifications.form.removeTrustedIssuer')}>
              <IconButton
                aria-label={t('verifications.form.removeTrustedIssuer')}
                onClick={() => issuers.remove(index)}
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
            onClick={() => issuers.append({ value: '' })}
            disabled={issuers.fields.length >= VERIFICATION_TRUSTED_ISSUERS_MAX}
            data-testid="trusted-issuer-add"
          >
            {t('verifications.form.addTrustedIssuer')}
          </Button>
        </Box>
      </Section>
      {schema && (
        <>
          <Divider />
          <Section title={t('verifications.preview.title')} helper={t('verifications.preview.helper')}>
            <Box
              data-testid="verification-preview"
              sx={{ p: 2, borderRadius: 2, bgcolor: 'grey.50', border: '1px solid', borderColor: 'divider' }}
            >
              <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                {t(`verifications.preview.ask${watchedType}`, { schema: schema.name })}
              </Typography>
              <Box component="ul" sx={{ m: 0, mt: 1, pl: 2.5, '& li': { typography: 'body2', mt: 0.5 } }}>
                {previewRules.length === 0 ? (
                  <li>{t('verifications.form.noRules')}</li>
                ) : (
                  previewRules.map((rule, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: rows are identified by their position
                    <li key={index}>{describeRule(t, rule)}</li>
                  ))
                )}
                <li>
                  {previewClaims.length > 0
                    ? t('verifications.preview.claims', { claims: listFormat.format(previewClaims) })
                    : t('verifications.validation.claimsRequired')}
                </li>
                <li>
                  {issuerCount > 0
                    ? t('verifications.preview.trustedIssuers', { count: issuerCount })
                    : t('verifications.form.anyIssuer')}
                </li>
              </Box>
            </Box>
          </Section>
        </>
      )}
      <Divider />
      <Box sx={{ px: { xs: 2, sm: 3 }, py: 2, display: 'flex', justifyContent: 'flex-end', gap: 1.5 }}>
        <Button color="secondary" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" disabled={isSaving} data-testid="verification-save">
          {isSaving ? t('common.saving') : submitLabel}
        </Button>
      </Box>
    </Card>
  );
}
