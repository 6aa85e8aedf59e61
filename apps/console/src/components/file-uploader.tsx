import type { MediaPurpose, UploadedMedia } from '@cp/contracts';
import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { type DragEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { API_BASE } from '../lib/api-client.ts';
import { usePublicConfig } from '../lib/public-config.ts';
import { sendWithSession } from '../lib/send-with-session.ts';

/** Fallbacks until GET /api/config answers (the API's defaults); the server enforces its own values. */
export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
export const UPLOAD_MAX_FILES = 5;

/** POST /api/media/upload: one file with its purpose, owned by the organization in CurrentIdentity. */
export async function uploadMedia(file: File, purpose: MediaPurpose, identity?: string): Promise<UploadedMedia> {
  const body = new FormData();
  body.set('purpose', purpose);
  body.set('file', file, file.name);
  const response = await sendWithSession(`${API_BASE}/media/upload`, { method: 'POST', body }, identity);
  return (await response.json()) as UploadedMedia;
}

/** The bytes of a private file (a KYB document) read with the user's credentials, for an object URL. */
export async function fetchMediaBlob(url: string): Promise<Blob> {
  const path = new URL(url, window.location.origin);
  const response = await sendWithSession(`${path.pathname}${path.search}`, { method: 'GET' });
  return response.blob();
}

export interface FileUploaderLabels {
  /** "Drag and drop or choose a file". */
  prompt: string;
  /** Accepted types and size, e.g. "PNG, JPG or PDF, up to 2 MB". */
  hint: string;
  tooLarge: (maxMb: number) => string;
  tooMany: (max: number) => string;
  remove: string;
}

export interface FileUploaderProps {
  files: File[];
  onChange: (files: File[]) => void;
  labels: FileUploaderLabels;
  /** `accept` of the file input, e.g. "image/png,image/jpeg,image/webp". */
  accept: string;
  maxFiles?: number;
  maxBytes?: number;
  disabled?: boolean;
  /** data-testid of the <input type=file>. */
  inputTestId?: string;
  /** Shows image previews as a grid of thumbnails. */
  preview?: boolean;
}

/**
 * A reusable drag-and-drop or pick uploader (controlled): checks the size and the number of files before
 * anything is sent, lists the chosen files with a preview for images, and lets the user remove them.
 */
export function FileUploader({
  files,
  onChange,
  labels,
  accept,
  maxFiles: maxFilesProp,
  maxBytes: maxBytesProp,
  disabled = false,
  inputTestId,
  preview = true,
}: FileUploaderProps) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  // The API's own limits (GET /api/config) unless the caller sets stricter ones.
  const { data: config } = usePublicConfig();
  const maxFiles = maxFilesProp ?? config?.upload_max_files ?? UPLOAD_MAX_FILES;
  const maxBytes = maxBytesProp ?? config?.upload_max_bytes ?? UPLOAD_MAX_BYTES;
  const maxMb = Math.round((maxBytes / 1024 / 1024) * 10) / 10;

  const previews = useMemo(
    () => files.map((file) => (preview && file.type.startsWith('image/') ? URL.createObjectURL(file) : null)),
    [files, preview],
  );
  useEffect(
    () => () => {
      for (const url of previews) if (url) URL.revokeObjectURL(url);
    },
    [previews],
  );

  const add = (chosen: File[]) => {
    if (chosen.length === 0) return;
    if (chosen.some((file) => file.size > maxBytes)) {
      setError(labels.tooLarge(maxMb));
      return;
    }
    const next = maxFiles === 1 ? chosen.slice(0, 1) : [...files, ...chosen];
    if (next.length > maxFiles || (maxFiles === 1 && chosen.length > 1)) {
      setError(labels.tooMany(maxFiles));
      return;
    }
    setError(null);
    onChange(next);
  };

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) add([...event.dataTransfer.files]);
  };

  return (
    <Box>
      <Box
        component="label"
        htmlFor={inputId}
        onDragOver={(event: DragEvent<HTMLElement>) => {
          event.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        sx={{
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          gap: 1,
          px: 3,
          py: 3,
          textAlign: 'center',
          border: '1px dashed',
          borderColor: dragging ? 'primary.main' : 'divider',
          borderRadius: 2,
          bgcolor: dragging ? 'primary.50' : 'background.paper',
          cursor: disabled ? 'default' : 'pointer',
          opacity: disabled ? 0.6 : 1,
          transition: 'border-color 120ms, background-color 120ms',
          '&:hover': disabled ? undefined : { borderColor: 'primary.main' },
          '&:focus-within': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 },
        }}
      >
        <Box
          sx={{
            width: 40,
            height: 40,
            borderRadius: '50%',
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'grey.100',
            color: 'text.secondary',
          }}
        >
          <CloudUploadOutlined fontSize="small" />
        </Box>
        <Typography variant="subtitle2" sx={{ color: 'primary.main' }}>
          {labels.prompt}
        </Typography>
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {labels.hint}
        </Typography>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept={accept}
          multiple={maxFiles > 1}
          disabled={disabled}
          data-testid={inputTestId}
          style={{ position: 'absolute', width: 1, height: 1, opacity: 0, overflow: 'hidden' }}
          onChange={(event) => {
            add([...(event.target.files ?? [])]);
            // Choosing the same file again after removing it must fire change again.
            event.target.value = '';
          }}
        />
      </Box>
      {error && (
        <Alert severity="error" sx={{ mt: 1.5 }} data-testid="file-uploader-error">
          {error}
        </Alert>
      )}
      {files.length > 0 && (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1.5, display: 'grid', gap: 1 }}>
          {files.map((file, index) => (
            <Box
              component="li"
              key={`${file.name}-${file.size}-${file.lastModified}`}
              sx={{
                display: 'flex',
                alignItems: 'center',
                gap: 1.5,
                p: 1,
                pl: 1.5,
                border: '1px solid',
                borderColor: 'divider',
                borderRadius: 2,
                minWidth: 0,
              }}
            >
              {previews[index] ? (
                <Box
                  component="img"
                  src={previews[index] ?? undefined}
                  alt=""
                  sx={{ width: 40, height: 40, objectFit: 'cover', borderRadius: 1, flexShrink: 0 }}
                />
              ) : (
                <InsertDriveFileOutlined sx={{ color: 'text.secondary', flexShrink: 0 }} />
              )}
              <Box sx={{ minWidth: 0, flex: 1 }}>
                <Typography variant="body2" noWrap title={file.name}>
                  {file.name}
                </Typography>
                <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                  {formatSize(file.size)}
                </Typography>
              </Box>
              <IconButton
                aria-label={`${labels.remove}: ${file.name}`}
                disabled={disabled}
                onClick={() => {
                  setError(null);
                  onChange(files.filter((_, i) => i !== index));
                }}
              >
                <DeleteOutlined fontSize="small" />
              </IconButton>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}
