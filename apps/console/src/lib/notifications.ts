export type NotificationSeverity = 'success' | 'error' | 'info' | 'warning';

export interface AppNotification {
  id: number;
  severity: NotificationSeverity;
  title: string;
  message?: string;
}

let current: AppNotification | null = null;
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

/** Client state "notification (display, title, icon)" of spec §3: one snackbar at a time, the newest wins. */
export const notificationStore = {
  get: (): AppNotification | null => current,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  dismiss(): void {
    current = null;
    emit();
  },
};

export function notify(notification: Omit<AppNotification, 'id'>): void {
  current = { ...notification, id: nextId++ };
  emit();
}
