import type { Organization } from '@cp/contracts';
import BusinessOutlined from '@mui/icons-material/BusinessOutlined';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { FileUploader, UPLOAD_MAX_BYTES, uploadMedia } from '../../../components/file-uploader.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { notify } from '../../../lib/notifications.ts';
import { useUpdateOrganization } from '../api/update-organization.ts';

const ACCEPT = 'image/png,image/jpeg,image/webp';

/** The organization's logo: the current one, and (for admins) an uploader that saves a new one at once. */
export function OrganizationLogoField({
  organization,
  readOnly = false,
}: {
  organization: Organization;
  readOnly?: boolean;
}) {
  const { t } = useTranslation();
  const update = useUpdateOrganization(organization.id);
  const [files, setFiles] = useState<File[]>([]);
  const [uploading, setUploading] = useState(false);

  const onChange = async (chosen: File[]) => {
    setFiles(chosen);
    const file = chosen[0];
    if (!file) return;
    setUploading(true);
    try {
      const media = await uploadMedia(file, 'logo', organization.id);
      await update.mutateAsync({ logo: media.id });
      notify({ severity: 'success', title: t('organization.updated') });
      setFiles([]);
    } catch {
      notify({ severity: 'error', title: t('organization.updateFailed'), message: t('catalogue.updateOrganization') });
    } finally {
      setUploading(false);
    }
  };

  return (
    <Box sx={{ display: 'flex', gap: 2.5, alignItems: 'flex-start', flexDirection: { xs: 'column', sm: 'row' } }}>
      <Box
        sx={{
          width: 96,
          height: 96,
          flexShrink: 0,
          borderRadius: 2,
          border: '1px solid',
          borderColor: 'divider',
          bgcolor: 'grey.50',
          display: 'grid',
          placeItems: 'center',
          overflow: 'hidden',
          position: 'relative',
        }}
      >
        {organization.logo ? (
          <Box
            component="img"
            src={organization.logo.url}
            alt={t('organizations.logo.alt', { name: organization.name })}
            data-testid="organization-logo"
            sx={{ width: '100%', height: '100%', objectFit: 'contain' }}
          />
        ) : (
          <BusinessOutlined sx={{ color: 'grey.400', fontSize: 40 }} />
        )}
        {uploading && (
          <Box
            sx={{
              position: 'absolute',
              inset: 0,
              display: 'grid',
              placeItems: 'center',
              bgcolor: 'rgba(255,255,255,0.7)',
            }}
          >
            <CircularProgress size={24} aria-label={t('common.loading')} />
          </Box>
        )}
      </Box>
      {!readOnly && (
        <Box sx={{ flex: 1, minWidth: 0, width: '100%' }}>
          <FileUploader
            files={uploading ? files : []}
            onChange={onChange}
            accept={ACCEPT}
            maxFiles={1}
            maxBytes={UPLOAD_MAX_BYTES}
            disabled={uploading}
            inputTestId="logo-upload-input"
            labels={{
              prompt: organization.logo ? t('organizations.logo.replace') : t('organizations.logo.prompt'),
              hint: t('organizations.logo.hint', { max: UPLOAD_MAX_BYTES / 1024 / 1024 }),
              tooLarge: (max) => t('organizations.logo.tooLarge', { max }),
              tooMany: (max) => t('organizations.logo.tooMany', { count: max }),
              remove: t('organizations.logo.remove'),
            }}
          />
          {organization.logo && (
            <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mt: 1 }} noWrap>
              {t('organizations.logo.current', { filename: organization.logo.filename })}
            </Typography>
          )}
        </Box>
      )}
    </Box>
  );
}
