import type { CredentialImport } from '@cp/contracts';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { notify } from '../../../lib/notifications.ts';
import { downloadImportTemplate } from '../api/download-import-template.ts';
import { getCredentialImport } from '../api/get-credential-import.ts';
import { importCredentials } from '../api/import-credentials.ts';

export const IMPORT_POLL_MS = 1500;

const isCsv = (file: File) => file.name.toLowerCase().endsWith('.csv');

/** Imports recipients from a CSV: pick a file, upload, poll the import until it ends, show counts and row errors. */
export function CsvImportDialog({
  open,
  organizationId,
  schemaId,
  schemaName,
  name,
  description,
  onClose,
}: {
  open: boolean;
  organizationId: string;
  schemaId: string;
  schemaName: string;
  name: string;
  description: string;
  onClose: (imported: CredentialImport | null) => void;
}) {
  const { t } = useTranslation();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState(false);
  const [importId, setImportId] = useState<string | null>(null);
  const [progress, setProgress] = useState<CredentialImport | null>(null);
  const [uploading, setUploading] = useState(false);

  useEffect(() => {
    if (open) {
      setFile(null);
      setFileError(false);
      setImportId(null);
      setProgress(null);
    }
  }, [open]);

  useEffect(() => {
    if (!importId) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const answer = await getCredentialImport(organizationId, importId);
        if (stopped) return;
        setProgress(answer);
        if (answer.status === 'COMPLETED' || answer.status === 'FAILED') return;
      } catch {
        if (stopped) return;
        notify({ severity: 'error', title: t('catalogue.importCsv') });
      }
      timer = setTimeout(() => void poll(), IMPORT_POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [importId, organizationId, t]);

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    if (!isCsv(chosen)) {
      setFile(null);
      setFileError(true);
      return;
    }
    setFileError(false);
    setFile(chosen);
  };

  const upload = async () => {
    if (!file) return;
    setUploading(true);
    try {
      const started = await importCredentials(organizationId, { file, schemaId, name, description });
      setImportId(started.id);
    } catch {
      notify({ severity: 'error', title: t('catalogue.importCsv') });
    } finally {
      setUploading(false);
    }
  };

  const template = async () => {
    try {
      await downloadImportTemplate(
        organizationId,
        schemaId,
        `${schemaName.replace(/[^\w-]+/g, '_') || 'template'}.csv`,
      );
    } catch {
      notify({ severity: 'error', title: t('catalogue.downloadSampleCsv') });
    }
  };

  const done = progress?.status === 'COMPLETED' || progress?.status === 'FAILED';
  const running = Boolean(importId) && !done;
  const percent = progress && progress.total_count > 0 ? (progress.processed_count / progress.total_count) * 100 : 0;

  return (
    <Dialog open={open} onClose={running ? undefined : () => onClose(done ? progress : null)} fullWidth maxWidth="sm">
      <DialogTitle sx={{ fontWeight: 600 }}>{t('issuing.csv.title')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
          {t('issuing.csv.intro')}
        </Typography>
        <Button
          variant="text"
          startIcon={<DownloadOutlined />}
          onClick={() => void template()}
          data-testid="csv-template-download"
          sx={{ mb: 2 }}
        >
          {t('issuing.csv.template')}
        </Button>
        {!importId && (
          <Box
            sx={{
              border: 1,
              borderStyle: 'dashed',
              borderColor: fileError ? 'error.main' : 'divider',
              borderRadius: 2,
              p: 3,
              textAlign: 'center',
            }}
          >
            <input
              ref={inputRef}
              type="file"
              accept=".csv,text/csv"
              hidden
              data-testid="csv-file-input"
              onChange={(event) => {
                choose(event.target.files?.[0]);
                event.target.value = '';
              }}
            />
            <Button variant="outlined" startIcon={<UploadFileOutlined />} onClick={() => inputRef.current?.click()}>
              {t('issuing.csv.choose')}
            </Button>
            <Typography variant="body2" sx={{ mt: 1.5, overflowWrap: 'anywhere' }} data-testid="csv-file-name">
              {file ? file.name : t('issuing.csv.hint')}
            </Typography>
            {fileError && (
              <Typography variant="body2" sx={{ color: 'error.main', mt: 1 }} data-testid="csv-file-error">
                {t('issuing.csv.invalidFile')}
              </Typography>
            )}
          </Box>
        )}
        {importId && (
          <Box data-testid="csv-import-status" data-status={progress?.status ?? 'PENDING'}>
            <Typography variant="body2" sx={{ mb: 1 }}>
              {t(`issuing.csv.status.${progress?.status ?? 'PENDING'}`)}
            </Typography>
            <LinearProgress variant={progress ? 'determinate' : 'indeterminate'} value={done ? 100 : percent} />
            {progress && (
              <Typography variant="body2" sx={{ mt: 1.5 }}>
                {t('issuing.csv.counts', {
                  processed: progress.processed_count,
                  count: progress.total_count,
                  succeeded: progress.succeeded_count,
                  failed: progress.failed_count,
                })}
              </Typography>
            )}
            {progress?.status === 'FAILED' && (
              <Alert severity="error" sx={{ mt: 2 }}>
                {progress.failure_reason ?? t('catalogue.importCsv')}
              </Alert>
            )}
            {progress && progress.errors.length > 0 && (
              <ScrollRegion label={t('catalogue.importCsv')} sx={{ mt: 2, maxHeight: 260 }}>
                <Table size="small" stickyHeader data-testid="csv-import-errors">
                  <TableHead>
                    <TableRow>
                      <TableCell>{t('issuing.csv.row')}</TableCell>
                      <TableCell>{t('issuing.csv.column')}</TableCell>
                      <TableCell>{t('issuing.csv.message')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {progress.errors.map((error) => (
                      <TableRow key={`${error.row}-${error.column}-${error.message}`}>
                        <TableCell>{error.row}</TableCell>
                        <TableCell>{error.column}</TableCell>
                        <TableCell>{error.message}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </ScrollRegion>
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        {!importId ? (
          <>
            <Button color="secondary" onClick={() => onClose(null)}>
              {t('common.cancel')}
            </Button>
            <Button
              variant="contained"
              disabled={!file || uploading}
              onClick={() => void upload()}
              data-testid="csv-import-submit"
            >
              {t('issuing.csv.import')}
            </Button>
          </>
        ) : (
          <Button
            variant="contained"
            disabled={running}
            onClick={() => onClose(progress)}
            data-testid="csv-import-done"
          >
            {t('issuing.csv.done')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
