import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from '../../../i18n/index.ts';
import { CreateOrganizationForm } from './create-organization-form.tsx';

export function CreateOrganizationDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="create-organization-title">
      <DialogTitle id="create-organization-title" sx={{ fontWeight: 600 }}>
        {t('organization.createTitle')}
      </DialogTitle>
      <DialogContent sx={{ pt: '8px !important' }}>
        <CreateOrganizationForm onCreated={onCreated} onCancel={onClose} />
      </DialogContent>
    </Dialog>
  );
}
