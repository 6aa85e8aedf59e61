import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { type ReactNode, useId, useRef } from 'react';
import { useTranslation } from '../i18n/index.ts';

/**
 * A confirmation for an action that cannot be undone (delete, revoke). While it fades out it keeps
 * showing what it showed when open, so a closing dialog never flashes empty text.
 */
export function ConfirmDialog({
  open,
  title,
  body,
  children,
  confirmLabel,
  busy,
  onCancel,
  onConfirm,
  confirmTestId,
}: {
  open: boolean;
  title: string;
  body: string;
  /** Extra content under the body (a note about consequences). */
  children?: ReactNode;
  confirmLabel: string;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  confirmTestId: string;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const shown = useRef({ title, body, children });
  if (open) shown.current = { title, body, children };
  return (
    <Dialog open={open} onClose={busy ? undefined : onCancel} fullWidth maxWidth="xs" aria-labelledby={titleId}>
      <DialogTitle id={titleId} sx={{ fontWeight: 600 }}>
        {shown.current.title}
      </DialogTitle>
      <DialogContent>
        <DialogContentText>{shown.current.body}</DialogContentText>
        {shown.current.children}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button color="secondary" onClick={onCancel} disabled={busy}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" color="error" onClick={onConfirm} disabled={busy} data-testid={confirmTestId}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
