import {
  CREDENTIAL_SCHEMA_ATTRIBUTE_DESCRIPTION_MAX,
  CREDENTIAL_SCHEMA_ATTRIBUTE_NAME_PATTERN,
  CREDENTIAL_SCHEMA_ATTRIBUTES_MAX,
  CREDENTIAL_SCHEMA_DESCRIPTION_MAX,
  CREDENTIAL_SCHEMA_NAME_MAX,
  type CreateCredentialSchemaRequest,
  type CredentialSchemaAttributeType,
  credentialSchemaAttributeTypes,
  isReservedAttributeName,
} from '@cp/contracts';
import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from '../../../i18n/index.ts';
import { PublishCredentialSchemaDialog } from './publish-credential-schema-dialog.tsx';

export interface CredentialSchemaFormValues {
  name: string;
  description: string;
  attributes: { name: string; type: CredentialSchemaAttributeType; description: string }[];
}

export const emptyAttribute = (): CredentialSchemaFormValues['attributes'][number] => ({
  name: '',
  type: 'TEXT',
  description: '',
});

export const emptyCredentialSchemaForm = (): CredentialSchemaFormValues => ({
  name: '',
  description: '',
  attributes: [emptyAttribute()],
});

/** The request the form publishes: trimmed, empty descriptions left out. */
export function toCreateCredentialSchemaRequest(values: CredentialSchemaFormValues): CreateCredentialSchemaRequest {
  const description = values.description.trim();
  return {
    name: values.name.trim(),
    ...(description ? { description } : {}),
    attributes: values.attributes.map((a) => {
      const attributeDescription = a.description.trim();
      return {
        name: a.name.trim(),
        type: a.type,
        ...(attributeDescription ? { description: attributeDescription } : {}),
      };
    }),
  };
}

/**
 * The schema form of /schemas/create and /schemas/create/{id}. Validates what the API validates (required
 * fields, claim-safe and unique attribute names, limits) and asks for confirmation before publishing,
 * since a published schema is immutable.
 */
export function CredentialSchemaForm({
  defaultValues,
  onPublish,
  onCancel,
  isPublishing = false,
}: {
  defaultValues: CredentialSchemaFormValues;
  /** Resolves when published; rejects on failure (the form stays filled in). */
  onPublish: (request: CreateCredentialSchemaRequest) => Promise<void>;
  onCancel: () => void;
  isPublishing?: boolean;
}) {
  const { t } = useTranslation();
  const [pending, setPending] = useState<CreateCredentialSchemaRequest | null>(null);
  const { register, control, handleSubmit, formState, getValues, trigger } = useForm<CredentialSchemaFormValues>({
    defaultValues,
    // Errors first appear on Publish: a message appearing on blur would move the Publish button
    // between mouse down and up, and the click would be lost. Afterwards they update as the user types.
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { fields, append, remove } = useFieldArray({ control, name: 'attributes' });
  const errors = formState.errors;
  const required = t('validation.required');

  const validateAttributeName = (value: string, index: number) => {
    const name = value.trim();
    if (!name) return required;
    if (!CREDENTIAL_SCHEMA_ATTRIBUTE_NAME_PATTERN.test(name))
      return t('credentialSchemas.form.errors.attributeNamePattern');
    if (isReservedAttributeName(name)) return t('credentialSchemas.form.errors.attributeNameReserved', { name });
    const duplicate = getValues('attributes').some(
      (other, otherIndex) => otherIndex < index && other.name.trim().toLowerCase() === name.toLowerCase(),
    );
    return duplicate ? t('credentialSchemas.form.errors.attributeNameDuplicate') : true;
  };

  const onSubmit = handleSubmit((values) => setPending(toCreateCredentialSchemaRequest(values)));

  const confirm = async () => {
    if (!pending) return;
    try {
      await onPublish(pending);
      setPending(null);
    } catch {
      // The caller has told the user; the dialog closes so the form can be corrected.
      setPending(null);
    }
  };

  return (
    <Card component="form" noValidate onSubmit={onSubmit} data-testid="schema-form">
      <Box sx={{ p: 3, display: 'grid', gridTemplateColumns: { xs: '1fr', md: '240px 1fr' }, gap: { xs: 2, md: 4 } }}>
        <Box>
          <Typography variant="subtitle2" component="h2">
            {t('credentialSchemas.form.details')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
            {t('credentialSchemas.form.detailsHelper')}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2.5, minWidth: 0 }}>
          <TextField
            label={t('credentialSchemas.form.name')}
            placeholder={t('credentialSchemas.form.namePlaceholder')}
            required
            fullWidth
            error={Boolean(errors.name)}
            helperText={errors.name?.message}
            slotProps={{ htmlInput: { 'data-testid': 'schema-name', maxLength: CREDENTIAL_SCHEMA_NAME_MAX } }}
            {...register('name', {
              validate: (v) => v.trim().length > 0 || required,
              maxLength: {
                value: CREDENTIAL_SCHEMA_NAME_MAX,
                message: t('common.maxLength', { count: CREDENTIAL_SCHEMA_NAME_MAX }),
              },
            })}
          />
          <TextField
            label={t('credentialSchemas.form.description')}
            fullWidth
            multiline
            minRows={3}
            error={Boolean(errors.description)}
            helperText={errors.description?.message}
            slotProps={{ htmlInput: { 'data-testid': 'schema-description' } }}
            {...register('description', {
              maxLength: {
                value: CREDENTIAL_SCHEMA_DESCRIPTION_MAX,
                message: t('common.maxLength', { count: CREDENTIAL_SCHEMA_DESCRIPTION_MAX }),
              },
            })}
          />
        </Box>
      </Box>
      <Divider />
      <Box sx={{ p: 3, display: 'flex', flexDirection: 'column', gap: 2.5 }}>
        <Box sx={{ maxWidth: 640 }}>
          <Typography variant="subtitle2" component="h2">
            {t('credentialSchemas.form.attributes')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
            {t('credentialSchemas.form.attributesHelper')}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
          {fields.map((field, index) => {
            const fieldErrors = errors.attributes?.[index];
            const number = index + 1;
            return (
              <Box
                key={field.id}
                data-testid={`attribute-row-${index}`}
                sx={{
                  display: 'grid',
                  // Phones: a card per attribute with its number and remove button on top; wider: one line.
                  gridTemplateColumns: { xs: 'minmax(0,1fr) 40px', md: 'minmax(0,1fr) 190px minmax(0,1.4fr) 40px' },
                  gridTemplateAreas: {
                    xs: '"label remove" "name name" "type type" "description description"',
                    md: '"name type description remove"',
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
                  {t('credentialSchemas.form.attributeLabel', { number })}
                </Typography>
                <TextField
                  label={t('credentialSchemas.form.attributeName')}
                  required
                  size="small"
                  fullWidth
                  sx={{ gridArea: 'name' }}
                  error={Boolean(fieldErrors?.name)}
                  helperText={fieldErrors?.name?.message}
                  slotProps={{
                    htmlInput: {
                      'data-testid': `attribute-name-${index}`,
                      autoCapitalize: 'none',
                      autoCorrect: 'off',
                      spellCheck: false,
                      maxLength: 64,
                    },
                  }}
                  {...register(`attributes.${index}.name`, {
                    validate: (v) => validateAttributeName(v, index),
                    // A fixed duplicate further down clears once the earlier name changes.
                    onChange: () => {
                      if (formState.isSubmitted) void trigger('attributes');
                    },
                  })}
                />
                <TextField
                  select
                  label={t('credentialSchemas.form.attributeType')}
                  size="small"
                  fullWidth
                  sx={{ gridArea: 'type' }}
                  slotProps={{
                    select: { native: true },
                    htmlInput: { 'data-testid': `attribute-type-${index}` },
                    inputLabel: { shrink: true },
                  }}
                  {...register(`attributes.${index}.type`)}
                >
                  {credentialSchemaAttributeTypes.map((type) => (
                    <option key={type} value={type}>
                      {t(`credentialSchemas.types.${type}`)}
                    </option>
                  ))}
                </TextField>
                <TextField
                  label={t('credentialSchemas.form.attributeDescription')}
                  size="small"
                  fullWidth
                  sx={{ gridArea: 'description' }}
                  error={Boolean(fieldErrors?.description)}
                  helperText={fieldErrors?.description?.message}
                  slotProps={{ htmlInput: { 'data-testid': `attribute-description-${index}` } }}
                  {...register(`attributes.${index}.description`, {
                    maxLength: {
                      value: CREDENTIAL_SCHEMA_ATTRIBUTE_DESCRIPTION_MAX,
                      message: t('common.maxLength', { count: CREDENTIAL_SCHEMA_ATTRIBUTE_DESCRIPTION_MAX }),
                    },
                  })}
                />
                <Tooltip title={t('credentialSchemas.form.removeAttribute', { number })}>
                  <Box component="span" sx={{ gridArea: 'remove', justifySelf: 'end' }}>
                    <IconButton
                      aria-label={t('credentialSchemas.form.removeAttribute', { number })}
                      onClick={() => remove(index)}
                      disabled={fields.length <= 1}
                      data-testid={`attribute-remove-${index}`}
                      sx={{ mt: { xs: -0.5, md: 0 } }}
                    >
                      <DeleteOutlineOutlined fontSize="small" />
                    </IconButton>
                  </Box>
                </Tooltip>
              </Box>
            );
          })}
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
            <Button
              startIcon={<AddOutlined />}
              variant="outlined"
              color="secondary"
              onClick={() => append(emptyAttribute())}
              disabled={fields.length >= CREDENTIAL_SCHEMA_ATTRIBUTES_MAX}
              data-testid="attribute-add"
            >
              {t('credentialSchemas.form.addAttribute')}
            </Button>
            {fields.length >= CREDENTIAL_SCHEMA_ATTRIBUTES_MAX && (
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {t('credentialSchemas.form.maxAttributes', { count: CREDENTIAL_SCHEMA_ATTRIBUTES_MAX })}
              </Typography>
            )}
          </Box>
        </Box>
      </Box>
      <Divider />
      <Box sx={{ px: 3, py: 2, display: 'flex', justifyContent: 'flex-end', gap: 1.5 }}>
        <Button color="secondary" onClick={onCancel}>
          {t('credentialSchemas.form.cancel')}
        </Button>
        <Button type="submit" variant="contained" disabled={isPublishing} data-testid="schema-publish">
          {t('credentialSchemas.form.publish')}
        </Button>
      </Box>
      <PublishCredentialSchemaDialog
        open={pending !== null}
        isPublishing={isPublishing}
        onCancel={() => setPending(null)}
        onConfirm={confirm}
      />
    </Card>
  );
}
