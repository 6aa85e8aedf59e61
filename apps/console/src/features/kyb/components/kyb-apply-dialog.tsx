import CheckCircleOutlineOutlined from '@mui/icons-material/CheckCircleOutlineOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useState } from 'react';
import { FileUploader, UPLOAD_MAX_BYTES } from '../../../components/file-uploader.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { usePublicConfig } from '../../../lib/public-config.ts';

/** An application carries at most five documents (POST kyb/{orgId}). */
const KYB_DOCUMENTS_MAX = 5;

import { notify } from '../../../lib/notifications.ts';
import { useSubmitKybApplication } from '../api/submit-kyb-application.ts';

const ACCEPT = 'application/pdf,image/png,image/jpeg,image/webp';

/** Apply for verification: what to send, the documents (1-5), submit. */
export function KybApplyDialog({ organizationId, onClose }: { organizationId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const maxBytes = usePublicConfig().data?.upload_max_bytes ?? UPLOAD_MAX_BYTES;
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const [files, setFiles] = useState<File[]>([]);
  const submit = useSubmitKybApplication(organizationId);

  const onSubmit = async () => {
    try {
      await submit.mutateAsync(files);
      notify({ severity: 'success', title: t('kyb.apply.submitted') });
      onClose();
    } catch {
      notify({ severity: 'error', title: t('kyb.apply.failed'), message: t('catalogue.verifyOrganization') });
    }
  };

  return (
    <Dialog
      open
      onClose={submit.isPending ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      fullScreen={fullScreen}
      data-testid="kyb-apply-dialog"
      aria-labelledby="kyb-apply-title"
    >
      <DialogTitle id="kyb-apply-title">{t('kyb.apply.title')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('kyb.apply.intro')}
        </Typography>
        <Box component="ul" sx={{ listStyle: 'none', p: 0, my: 2, display: 'grid', gap: 1 }}>
          {(['registration', 'address', 'representative'] as const).map((key) => (
            <Box component="li" key={key} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
              <CheckCircleOutlineOutlined fontSize="small" sx={{ color: 'primary.main', mt: '1px' }} />
              <Typography variant="body2">{t(`kyb.apply.documents.${key}`)}</Typography>
            </Box>
          ))}
        </Box>
        <FileUploader
          files={files}
          onChange={setFiles}
          accept={ACCEPT}
          maxFiles={KYB_DOCUMENTS_MAX}
          maxBytes={maxBytes}
          disabled={submit.isPending}
          inputTestId="kyb-upload-input"
          labels={{
            prompt: t('kyb.apply.uploadPrompt'),
            hint: t('kyb.apply.uploadHint', {
              max: Math.round((maxBytes / 1024 / 1024) * 10) / 10,
              count: KYB_DOCUMENTS_MAX,
            }),
            tooLarge: (max) => t('kyb.upload.tooLarge', { max }),
            tooMany: (max) => t('kyb.upload.tooMany', { count: max }),
            remove: t('kyb.upload.remove'),
          }}
        />
        <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mt: 2 }}>
          {t('kyb.apply.processingTime')}
        </Typography>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button color="secondary" onClick={onClose} disabled={submit.isPending}>
          {t('kyb.apply.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={onSubmit}
          disabled={files.length === 0 || submit.isPending}
          data-testid="kyb-submit"
        >
          {submit.isPending ? t('kyb.apply.submitting') : t('kyb.apply.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
