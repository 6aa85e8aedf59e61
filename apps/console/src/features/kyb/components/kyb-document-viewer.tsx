import type { UploadedMedia } from '@cp/contracts';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { fetchMediaBlob, formatSize } from '../../../components/file-uploader.tsx';
import { useTranslation } from '../../../i18n/index.ts';

/**
 * One private KYB document: read with the reviewer's credentials into an object URL (an <img> or a new tab
 * cannot send the Authorization header). Images show inline; PDFs open in a new tab or download.
 */
export function KybDocumentViewer({ document, onClose }: { document: UploadedMedia; onClose: () => void }) {
  const { t } = useTranslation();
  const blob = useQuery({
    queryKey: ['kyb-document', document.id],
    queryFn: () => fetchMediaBlob(document.url),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  const objectUrl = useMemo(() => (blob.data ? URL.createObjectURL(blob.data) : null), [blob.data]);
  useEffect(
    () => () => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    },
    [objectUrl],
  );
  const isImage = document.content_type.startsWith('image/');

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" data-testid="admin-kyb-document-viewer">
      <DialogTitle sx={{ pr: 3 }}>
        <Typography variant="h6" component="span" noWrap sx={{ display: 'block' }}>
          {document.filename}
        </Typography>
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {document.content_type} · {formatSize(document.size)}
        </Typography>
      </DialogTitle>
      <DialogContent dividers sx={{ display: 'grid', placeItems: 'center', minHeight: 240, bgcolor: 'grey.50' }}>
        {blob.isError && <Alert severity="error">{t('catalogue.verifyOrganization')}</Alert>}
        {!objectUrl && !blob.isError && <CircularProgress size={28} aria-label={t('common.loading')} />}
        {objectUrl && isImage && (
          <Box
            component="img"
            src={objectUrl}
            alt={document.filename}
            sx={{ maxWidth: '100%', maxHeight: '70vh', objectFit: 'contain', borderRadius: 1 }}
            data-testid="admin-kyb-document-image"
          />
        )}
        {objectUrl && !isImage && (
          <Typography variant="body2" sx={{ color: 'text.secondary', textAlign: 'center' }}>
            {t('kyb.review.pdfHint')}
          </Typography>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button
          startIcon={<OpenInNewOutlined />}
          disabled={!objectUrl}
          onClick={() => objectUrl && window.open(objectUrl, '_blank', 'noopener')}
          data-testid="admin-kyb-document-open"
        >
          {t('kyb.review.open')}
        </Button>
        <Button
          startIcon={<DownloadOutlined />}
          disabled={!objectUrl}
          component="a"
          href={objectUrl ?? undefined}
          download={document.filename}
          data-testid="admin-kyb-document-download"
        >
          {t('kyb.review.download')}
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button variant="contained" color="secondary" onClick={onClose}>
          {t('kyb.review.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
