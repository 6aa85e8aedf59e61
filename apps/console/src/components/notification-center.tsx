import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Snackbar from '@mui/material/Snackbar';
import { useSyncExternalStore } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { notificationStore } from '../lib/notifications.ts';

/** The snackbar: a title, an optional message and the severity's icon (success / error / info / warning). */
export function NotificationCenter() {
  const { t } = useTranslation();
  const notification = useSyncExternalStore(notificationStore.subscribe, notificationStore.get, notificationStore.get);
  return (
    <Snackbar
      key={notification?.id}
      open={notification !== null}
      autoHideDuration={6000}
      onClose={(_, reason) => {
        if (reason !== 'clickaway') notificationStore.dismiss();
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert
        severity={notification?.severity ?? 'info'}
        variant="outlined"
        onClose={() => notificationStore.dismiss()}
        closeText={t('common.close')}
        data-testid="notification"
        sx={{ bgcolor: 'background.paper', boxShadow: 3, minWidth: 300, maxWidth: 440, alignItems: 'flex-start' }}
      >
        <AlertTitle sx={{ mb: notification?.message ? 0.5 : 0, fontWeight: 600 }}>{notification?.title}</AlertTitle>
        {notification?.message}
      </Alert>
    </Snackbar>
  );
}
