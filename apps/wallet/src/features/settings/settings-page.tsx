import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import FileUploadOutlined from '@mui/icons-material/FileUploadOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type LockAfterMinutes, WalletErrorCode } from '../../app/core-api.ts';
import { errorCode } from '../../app/error-message.ts';
import { useVaultState } from '../../app/vault-context.tsx';
import { PageTitle, Section } from '../../components/section.tsx';
import { changeLanguage, currentLanguage, WALLET_LANGUAGES } from '../../i18n/index.ts';
import { backupFileName, downloadFile } from './download-file.ts';

export const MIN_PASSPHRASE_LENGTH = 8;

/** The idle times offered (the vault's LOCK_AFTER_CHOICES; the core is its own chunk, not imported here). */
const LOCK_AFTER_OPTIONS: readonly LockAfterMinutes[] = [0, 1, 5, 15];

export function SettingsPage() {
  const { t } = useTranslation();
  const { lock, lockAfter, setLockAfter } = useVaultState();
  const [dialog, setDialog] = useState<'export' | 'import' | 'reset' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const close = () => setDialog(null);
  const done = (message: string) => {
    setDialog(null);
    setNotice(message);
  };

  return (
    <Box>
      <PageTitle>{t('settings.title')}</PageTitle>
      <Stack spacing={2}>
        <Section title={t('settings.language')}>
          <TextField
            select
            value={currentLanguage()}
            onChange={(event) => void changeLanguage(event.target.value)}
            fullWidth
            slotProps={{
              htmlInput: { 'data-testid': 'settings-language' },
              select: {
                SelectDisplayProps: { 'aria-label': t('settings.language') } as HTMLAttributes<HTMLDivElement>,
              },
            }}
          >
            {WALLET_LANGUAGES.map((language) => (
              <MenuItem key={language} value={language} lang={language}>
                {t(`languages.${language}`)}
              </MenuItem>
            ))}
          </TextField>
        </Section>
        <Section title={t('settings.security')}>
          <TextField
            select
            label={t('settings.lockAfter')}
            value={lockAfter ?? ''}
            onChange={(event) => void setLockAfter(Number(event.target.value) as LockAfterMinutes)}
            helperText={t('settings.lockAfterHelp')}
            fullWidth
            // Room above for the outlined field's label, under the section title.
            sx={{ mt: 1.5, mb: 2 }}
            slotProps={{
              // Native: the phone's own picker.
              select: { native: true },
              inputLabel: { shrink: true },
              htmlInput: { 'data-testid': 'settings-lock-after' },
            }}
          >
            {lockAfter === null && <option value="" disabled />}
            {LOCK_AFTER_OPTIONS.map((minutes) => (
              <option key={minutes} value={minutes}>
                {minutes === 0
                  ? t('settings.lockAfterImmediately')
                  : t('settings.lockAfterMinutes', { count: minutes })}
              </option>
            ))}
          </TextField>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
            {t('settings.lockHelp')}
          </Typography>
          <Button variant="outlined" startIcon={<LockOutlined />} onClick={lock} data-testid="settings-lock">
            {t('settings.lock')}
          </Button>
        </Section>
        <Section title={t('settings.backup')}>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
            {t('settings.backupHelp')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            <Button
              variant="outlined"
              startIcon={<FileDownloadOutlined />}
              onClick={() => setDialog('export')}
              data-testid="settings-export"
            >
              {t('settings.export')}
            </Button>
            <Button
              variant="outlined"
              startIcon={<FileUploadOutlined />}
              onClick={() => setDialog('import')}
              data-testid="settings-import"
            >
              {t('settings.import')}
            </Button>
          </Stack>
        </Section>
        <Section title={t('settings.reset')}>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
            {t('settings.resetHelp')}
          </Typography>
          <Button
            color="error"
            variant="outlined"
            startIcon={<DeleteForeverOutlined />}
            onClick={() => setDialog('reset')}
            data-testid="settings-reset"
          >
            {t('settings.reset')}
          </Button>
        </Section>
      </Stack>
      {dialog === 'export' && <ExportDialog onClose={close} onDone={() => done(t('settings.exported'))} />}
      {dialog === 'import' && <ImportDialog onClose={close} onDone={() => done(t('settings.imported'))} />}
      {dialog === 'reset' && <ResetDialog onClose={close} />}
      <Snackbar
        open={notice !== null}
        autoHideDuration={4000}
        onClose={() => setNotice(null)}
        message={notice}
        anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      />
    </Box>
  );
}

function ExportDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { vault } = useVaultState();
  const [passphrase, setPassphrase] = useState('');
  const [confirm, setConfirm] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const tooShort = passphrase.length < MIN_PASSPHRASE_LENGTH;
  const mismatch = passphrase !== confirm;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (tooShort || mismatch || !vault) return;
    setBusy(true);
    setFailed(false);
    try {
      downloadFile(backupFileName(), await vault.exportBackup(passphrase));
      onDone();
    } catch (error) {
      console.error(error);
      setFailed(true);
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <Box component="form" onSubmit={onSubmit} noValidate>
        <DialogTitle>{t('settings.exportTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('settings.exportBody')}</DialogContentText>
          <Stack spacing={2}>
            <TextField
              label={t('settings.passphrase')}
              type="password"
              autoComplete="new-password"
              value={passphrase}
              onChange={(event) => setPassphrase(event.target.value)}
              error={submitted && tooShort}
              helperText={
                submitted && tooShort
                  ? t('settings.passphraseTooShort', { count: MIN_PASSPHRASE_LENGTH })
                  : t('settings.passphraseHelp', { count: MIN_PASSPHRASE_LENGTH })
              }
              slotProps={{ htmlInput: { 'data-testid': 'export-passphrase' } }}
              fullWidth
            />
            <TextField
              label={t('settings.passphraseConfirm')}
              type="password"
              autoComplete="new-password"
              value={confirm}
              onChange={(event) => setConfirm(event.target.value)}
              error={submitted && !tooShort && mismatch}
              helperText={submitted && !tooShort && mismatch ? t('settings.passphraseMismatch') : ' '}
              slotProps={{ htmlInput: { 'data-testid': 'export-passphrase-confirm' } }}
              fullWidth
            />
            {failed && <Alert severity="error">{t('settings.failed')}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('settings.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy} data-testid="export-download">
            {t('settings.download')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

function ImportDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { vault } = useVaultState();
  const [file, setFile] = useState<File | null>(null);
  const [passphrase, setPassphrase] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<'wrong' | 'failed' | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!file || !passphrase || !vault) return;
    setBusy(true);
    setError(null);
    try {
      const ok = await vault.importBackup(await file.text(), passphrase);
      if (ok) return onDone();
      setError('wrong');
    } catch (failure) {
      setError(errorCode(failure) === WalletErrorCode.BACKUP_INVALID ? 'wrong' : 'failed');
    }
    setBusy(false);
  }

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <Box component="form" onSubmit={onSubmit} noValidate>
        <DialogTitle>{t('settings.importTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <Alert severity="warning">{t('settings.importWarning')}</Alert>
            <Box>
              <Typography variant="body2" sx={{ mb: 0.5 }}>
                {t('settings.importFile')}
              </Typography>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Button component="label" variant="outlined" size="small">
                  {t('settings.chooseFile')}
                  <input
                    hidden
                    type="file"
                    accept="application/json,.json"
                    data-testid="import-file"
                    onChange={(event) => setFile(event.target.files?.[0] ?? null)}
                  />
                </Button>
                <Typography variant="body2" sx={{ color: 'text.secondary', wordBreak: 'break-all' }}>
                  {file?.name ?? t('settings.noFile')}
                </Typography>
              </Stack>
            </Box>
            <TextField
              label={t('settings.passphrase')}
              type="password"
              autoComplete="off"
              value={passphrase}
              onChange={(event) => setPassphrase(event.target.value)}
              slotProps={{ htmlInput: { 'data-testid': 'import-passphrase' } }}
              fullWidth
            />
            {error && (
              <Alert severity="error">{error === 'wrong' ? t('settings.wrongPassphrase') : t('settings.failed')}</Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('settings.cancel')}</Button>
          <Button
            type="submit"
            variant="contained"
            color="warning"
            disabled={busy || !file || !passphrase}
            data-testid="import-confirm"
          >
            {t('settings.confirmImport')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

function ResetDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { reset } = useVaultState();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  async function confirm() {
    setBusy(true);
    try {
      await reset();
    } catch (error) {
      console.error(error);
      setFailed(true);
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t('settings.resetTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('settings.resetBody')}</DialogContentText>
        {failed && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {t('settings.failed')}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('settings.cancel')}</Button>
        <Button color="error" variant="contained" onClick={confirm} disabled={busy} data-testid="reset-confirm">
          {t('settings.confirmReset')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
