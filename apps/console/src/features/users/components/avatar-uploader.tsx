import type { UserProfile } from '@cp/contracts';
import { useState } from 'react';
import { FileUploader, UPLOAD_MAX_BYTES, uploadMedia } from '../../../components/file-uploader.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { notify } from '../../../lib/notifications.ts';
import { useUpdateUserProfile } from '../api/update-user-profile.ts';

/** Uploads a profile picture (purpose avatar) and makes it the user's avatar at once. */
export function AvatarUploader({ onSaved }: { onSaved: (profile: UserProfile) => void }) {
  const { t } = useTranslation();
  const update = useUpdateUserProfile();
  const [files, setFiles] = useState<File[]>([]);
  const [uploading, setUploading] = useState(false);

  const onChange = async (chosen: File[]) => {
    const file = chosen[0];
    setFiles(chosen);
    if (!file) return;
    setUploading(true);
    try {
      const media = await uploadMedia(file, 'avatar');
      onSaved(await update.mutateAsync({ avatar: media.id }));
      notify({ severity: 'success', title: t('settings.saved') });
    } catch {
      notify({ severity: 'error', title: t('settings.saveFailed') });
    } finally {
      setUploading(false);
      setFiles([]);
    }
  };

  return (
    <FileUploader
      files={uploading ? files : []}
      onChange={onChange}
      accept="image/png,image/jpeg,image/webp"
      maxFiles={1}
      maxBytes={UPLOAD_MAX_BYTES}
      disabled={uploading}
      inputTestId="avatar-upload-input"
      labels={{
        prompt: t('users.avatar.prompt'),
        hint: t('users.avatar.hint', { max: UPLOAD_MAX_BYTES / 1024 / 1024 }),
        tooLarge: (max) => t('users.avatar.tooLarge', { max }),
        tooMany: (max) => t('users.avatar.tooMany', { count: max }),
        remove: t('users.avatar.remove'),
      }}
    />
  );
}
