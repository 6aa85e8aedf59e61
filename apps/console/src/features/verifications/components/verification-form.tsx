import {
  type CreateVerificationRequest,
  type CredentialSchemaAttributeType,
  ProblemCode,
  VERIFICATION_DESCRIPTION_MAX,
  VERIFICATION_NAME_MAX,
  VERIFICATION_RULE_VALUE_MAX,
  VERIFICATION_RULES_MAX,
  type VerificationType,
  verificationOperators,
  verifierClientIdSchemes,
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
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Controller, FormProvider, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from '../../../i18n/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { problemMessageKeys } from '../../../lib/problem-messages.ts';
import { describeRule } from './check-messages.ts';
import { ChoiceCard } from './choice-card.tsx';
import { ExternalCredentialFields } from './external-credential-fields.tsx';
import { ruleValueError, ruleValueErrorFromServer } from './rule-value.ts';
import { TrustPolicyFields } from './trust-policy-fields.tsx';
import {
  type CredentialSource,
  claimOptions,
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
        // Side by side only from `lg`: beside the side menu of a 900-1199 px window the fields would get 350 px.
        gridTemplateColumns: { xs: '1fr', lg: '240px minmax(0, 1fr)' },
        gap: { xs: 2, lg: 4 },
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

const SOURCES: CredentialSource[] = ['SCHEMA', 'EXTERNAL'];
/** The formats' message keys: an SD-JWT VC, or an ISO/IEC 18013-5 mdoc. */
const FORMATS = [
  { value: 'dc+sd-jwt', key: 'SD_JWT_VC' },
  { value: 'mso_mdoc', key: 'MDOC' },
] as const;

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
 * The verification form of /verifications/create and /verifications/edit/{id}: name; the credential asked for
 * (one of this platform's schemas, or a credential type of another issuer with its claims); single-use or
 * reusable; rules checked against the claim's type as the API checks them; the claims the verifier wants to see;
 * and which issuers it trusts. A failed save keeps what was typed; the API's field errors (422 `errors[].path`)
 * show on their field.
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
  const form = useForm<VerificationFormValues>({
    defaultValues,
    // Errors first appear on Save, then follow the typing.
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { register, control, handleSubmit, formState, getValues, setValue, setError, trigger } = form;
  const rules = useFieldArray({ control, name: 'rules' });
  const source = useWatch({ control, name: 'source' });
  const schemaId = useWatch({ control, name: 'schema_id' });
  const watchedClaimsDefinition = useWatch({ control, name: 'claims' });
  const watchedRules = useWatch({ control, name: 'rules' });
  const watchedVcts = useWatch({ control, name: 'vct_values' });
  const watchedFormat = useWatch({ control, name: 'format' });
  const watchedDocType = useWatch({ control, name: 'doctype_value' });
  const errors = formState.errors;
  const required = t('validation.required');
  const isExternal = source === 'EXTERNAL';
  const schema = isExternal ? undefined : schemas.find((option) => option.id === schemaId);
  // What rules and "claims to see" can name: the schema's attributes, or the claims typed for the external type.
  const options = claimOptions({ source, claims: watchedClaimsDefinition ?? [] }, schema);
  const optionOf = (key: string) => options.find((option) => option.key === key);
  const ruleKeys = new Set((watchedRules ?? []).map((rule) => rule.attribute).filter(Boolean));
  const hasCredential = isExternal || Boolean(schema);
  const credentialName = !isExternal
    ? schema?.name
    : watchedFormat === 'mso_mdoc'
      ? watchedDocType?.trim() || undefined
      : (watchedVcts ?? []).map((vct) => vct.value.trim()).find(Boolean);

  const validationMessage = (key: string) => t(`verifications.validation.${key}`);

  // The preview: what holders are asked for, in words.
  const watchedType = useWatch({ control, name: 'type' });
  const watchedRequested = useWatch({ control, name: 'requested' });
  const trustPolicy = useWatch({ control, name: 'trust_policy' });
  const issuerCount = useWatch({ control, name: 'trusted_issuers' })?.length ?? 0;
  const listFormat = new Intl.ListFormat(i18n.language, { type: 'conjunction' });
  const previewRules = (watchedRules ?? []).flatMap((rule) => {
    const option = optionOf(rule.attribute);
    if (!option || !rule.value.trim()) return [];
    const value =
      option.type === 'BOOLEAN' ? t(`verifications.form.${rule.value === 'true' ? 'true' : 'false'}`) : rule.value;
    return [{ attribute: option.name, operator: rule.operator, value: value.trim() }];
  });
  const previewClaims = options
    .filter((option) => ruleKeys.has(option.key) || (watchedRequested ?? []).includes(option.key))
    .map((option) => option.name);
  const previewTrust =
    trustPolicy === 'NAMED_ISSUERS'
      ? t('verifications.preview.trustedIssuers', { count: issuerCount })
      : t(`verifications.preview.trust.${trustPolicy}`);

  const showServerErrors = (error: unknown) => {
    if (!isApiError(error)) return;
    if (error.is(ProblemCode.CREDENTIAL_SCHEMA_NOT_FOUND)) {
      setError(
        'schema_id',
        { message: t(problemMessageKeys[ProblemCode.CREDENTIAL_SCHEMA_NOT_FOUND]) },
        { shouldFocus: true },
      );
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
    setValue('requested', next?.attributes.map((attribute) => attribute.id) ?? []);
  };

  const changeSource = (next: CredentialSource) => {
    // Rules and claims name the schema's attributes or the type's claims: the other kind starts over.
    rules.replace([]);
    const nextOptions = claimOptions({ source: next, claims: getValues('claims') }, schema);
    setValue(
      'requested',
      nextOptions.map((option) => option.key),
    );
  };

  return (
    <FormProvider {...form}>
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
          <Controller
            control={control}
            name="source"
            render={({ field }) => (
              <ToggleButtonGroup
                exclusive
                fullWidth
                color="primary"
                size="small"
                value={field.value}
                onChange={(_, next: CredentialSource | null) => {
                  if (!next || next === field.value) return;
                  field.onChange(next);
                  changeSource(next);
                }}
                aria-label={t('verifications.form.source')}
                sx={{ '& .MuiToggleButton-root': { textTransform: 'none', fontWeight: 600, py: 1 } }}
              >
                {SOURCES.map((option) => (
                  <ToggleButton key={option} value={option} data-testid={`verification-source-${option}`}>
                    {t(`verifications.form.sources.${option}`)}
                  </ToggleButton>
                ))}
              </ToggleButtonGroup>
            )}
          />
          <TextField
            select
            label={t('verifications.form.format')}
            fullWidth
            helperText={t('verifications.form.formatHelper')}
            slotProps={{
              select: { native: true },
              htmlInput: { 'data-testid': 'verification-format' },
              inputLabel: { shrink: true },
            }}
            {...register('format')}
          >
            {FORMATS.map((format) => (
              <option key={format.value} value={format.value}>
                {t(`verifications.form.formats.${format.key}`)}
              </option>
            ))}
          </TextField>
          {isExternal ? (
            <ExternalCredentialFields />
          ) : (
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
                validate: (value) => getValues('source') !== 'SCHEMA' || Boolean(value) || required,
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
          )}
          <Typography variant="subtitle1" component="h3" sx={{ mb: -1 }}>
            {t('verifications.form.type')}
          </Typography>
          <Controller
            control={control}
            name="type"
            render={({ field }) => (
              <Box
                role="radiogroup"
                aria-label={t('verifications.form.type')}
                sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1.5 }}
              >
                {(['MULTI', 'SINGLE'] as const).map((type) => (
                  <ChoiceCard
                    key={type}
                    name={field.name}
                    value={type}
                    selected={field.value === type}
                    onSelect={() => field.onChange(type)}
                    icon={TYPE_ICONS[type]}
                    title={t(`verifications.types.${type}`)}
                    helper={t(`verifications.form.typeHelper.${type}`)}
                    testId={`verification-type-${type}`}
                  />
                ))}
              </Box>
            )}
          />
        </Section>
        <Divider />
        <Section title={t('verifications.form.rules')} helper={t('verifications.form.rulesHelper')}>
          {!hasCredential && (
            <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="verification-rules-no-schema">
              {t('verifications.form.chooseSchemaFirst')}
            </Typography>
          )}
          {hasCredential && rules.fields.length === 0 && (
            <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="verification-rules-none">
              {t(isExternal ? 'verifications.form.noRulesExternal' : 'verifications.form.noRules')}
            </Typography>
          )}
          {rules.fields.map((field, index) => {
            const ruleErrors = errors.rules?.[index];
            const number = index + 1;
            const type = optionOf(watchedRules?.[index]?.attribute ?? '')?.type;
            const valueField = register(`rules.${index}.value`, {
              validate: (value) => {
                const attribute = optionOf(getValues(`rules.${index}.attribute`))?.type;
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
                    // The condition column is never narrower than its longest operator in the language shown (a
                    // native select is as wide as its widest option): "greater than" was cut to "greater tha".
                    // One line from `md` up, where the fields have the whole width (`lg`: beside the section title).
                    md: 'minmax(0,1.2fr) minmax(max-content,0.8fr) minmax(0,1.2fr) 40px',
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
                  label={t(isExternal ? 'verifications.form.claim' : 'verifications.form.attribute')}
                  size="small"
                  fullWidth
                  sx={{ gridArea: 'attribute' }}
                  error={Boolean(ruleErrors?.attribute)}
                  helperText={ruleErrors?.attribute?.message}
                  slotProps={{
                    select: { native: true },
                    htmlInput: { 'data-testid': `rule-attribute-${index}` },
                    inputLabel: { shrink: true },
                  }}
                  {...register(`rules.${index}.attribute`, {
                    // A claim renamed or removed since: the rule names nothing any more.
                    validate: (value) => Boolean(optionOf(value)) || validationMessage('required'),
                    onChange: (event: { target: { value: string } }) => {
                      // A yes / no value starts as yes; any other type starts empty.
                      setValue(`rules.${index}.value`, optionOf(event.target.value)?.type === 'BOOLEAN' ? 'true' : '');
                      if (formState.isSubmitted) void trigger(`rules.${index}.value`);
                    },
                  })}
                >
                  <option value="" disabled>
                    {t(isExternal ? 'verifications.form.claimPlaceholder' : 'verifications.form.attributePlaceholder')}
                  </option>
                  {options.map((option) => (
                    <option key={option.key} value={option.key}>
                      {option.name}
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
          {hasCredential && (
            <Box>
              <Button
                startIcon={<AddOutlined />}
                variant="outlined"
                color="secondary"
                onClick={() => rules.append(emptyRule())}
                disabled={rules.fields.length >= VERIFICATION_RULES_MAX || options.length === 0}
                data-testid="rule-add"
              >
                {t('verifications.form.addRule')}
              </Button>
            </Box>
          )}
        </Section>
        <Divider />
        <Section title={t('verifications.form.claims')} helper={t('verifications.form.claimsHelper')}>
          {!hasCredential ? (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('verifications.form.chooseSchemaFirst')}
            </Typography>
          ) : (
            <Controller
              control={control}
              name="requested"
              rules={{
                validate: (keys) => {
                  const current = claimOptions(getValues(), schema).map((option) => option.key);
                  const wanted = [...keys, ...getValues('rules').map((rule) => rule.attribute)];
                  return wanted.some((key) => current.includes(key)) || validationMessage('claimsRequired');
                },
              }}
              render={({ field, fieldState }) => (
                <Box>
                  <Box
                    sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}
                    data-testid="verification-claims"
                  >
                    {options.map((option) => {
                      const byRule = ruleKeys.has(option.key);
                      const checked = byRule || field.value.includes(option.key);
                      return (
                        <FormControlLabel
                          key={option.key}
                          sx={{ minWidth: 0, mr: 0, '& .MuiFormControlLabel-label': { overflowWrap: 'anywhere' } }}
                          control={
                            <Checkbox
                              checked={checked}
                              disabled={byRule}
                              onChange={(event) =>
                                field.onChange(
                                  event.target.checked
                                    ? [...field.value, option.key]
                                    : field.value.filter((key) => key !== option.key),
                                )
                              }
                              slotProps={{ input: { 'data-testid': `claim-${option.name}` } as object }}
                            />
                          }
                          label={
                            <Box component="span">
                              {option.name}
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
        <Section title={t('verifications.form.trust')} helper={t('verifications.form.trustHelper')}>
          <TrustPolicyFields />
          {/* OpenID4VP 1.0 §5.9.3: how wallets are told who asks (x509_hash unless a wallet needs a DNS name). */}
          <TextField
            select
            label={t('verifications.form.clientIdScheme')}
            fullWidth
            helperText={errors.client_id_scheme?.message ?? t('verifications.form.clientIdSchemeHelper')}
            error={Boolean(errors.client_id_scheme)}
            slotProps={{
              select: { native: true },
              htmlInput: { 'data-testid': 'verification-client-id-scheme' },
              inputLabel: { shrink: true },
            }}
            sx={{ mt: 2 }}
            {...register('client_id_scheme')}
          >
            {verifierClientIdSchemes.map((scheme) => (
              <option key={scheme} value={scheme}>
                {t(`verifications.clientIdSchemes.${scheme}`)}
              </option>
            ))}
          </TextField>
        </Section>
        {hasCredential && (
          <>
            <Divider />
            <Section title={t('verifications.preview.title')} helper={t('verifications.preview.helper')}>
              <Box
                data-testid="verification-preview"
                sx={{ p: 2, borderRadius: 2, bgcolor: 'grey.50', border: '1px solid', borderColor: 'divider' }}
              >
                <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {t(`verifications.preview.ask${watchedType}`, {
                    schema: credentialName ?? t('verifications.preview.unnamedType'),
                  })}
                </Typography>
                <Box component="ul" sx={{ m: 0, mt: 1, pl: 2.5, '& li': { typography: 'body2', mt: 0.5 } }}>
                  {previewRules.length === 0 ? (
                    <li>{t(isExternal ? 'verifications.form.noRulesExternal' : 'verifications.form.noRules')}</li>
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
                  <li>{previewTrust}</li>
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
    </FormProvider>
  );
}
