import AddOutlined from '@mui/icons-material/AddOutlined';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ReactNode, useRef, useState } from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { useTranslation } from '../i18n/index.ts';
import { formatFingerprint, readCertificateFile } from '../lib/certificate-file.ts';
import { notify } from '../lib/notifications.ts';
import { useCopyToClipboard } from '../lib/use-copy-to-clipboard.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { EmptyState } from './empty-state.tsx';
import { MobileFacts } from './mobile-facts.tsx';
import { PageHeader } from './page-header.tsx';

/**
 * What the organization's certificate lists share: the trust anchors its verifier trusts issuers under and the
 * wallet providers its issuer trusts wallets under. Each screen names its messages by a namespace (`ns`, e.g.
 * `trustAnchors`) holding the same keys (title, add, count, errors.load, deleteDialog.…, copyFingerprint, …) and
 * its test ids by a stem (`trust-anchor` → `trust-anchor-add`, `trust-anchors-empty`, `trust-anchor-row-<id>`).
 */
export interface CertificateListNames {
  /** The messages' namespace. */
  ns: string;
  /** The test-id stem of one row (`trust-anchor`); the list's is the stem with an `s`. */
  testId: string;
}

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 12 } as const;
/** A certificate that expires within this many days is flagged: what it vouches for is refused after that. */
const EXPIRES_SOON_DAYS = 30;

interface Named {
  id: string;
  name: string;
}

export interface CertificateListPageProps<Row extends Named, Body extends { name: string }>
  extends CertificateListNames {
  /** At most this many (the API's limit): the add button is disabled there, with why. */
  max: number;
  emptyIcon: ReactNode;
  list: { data?: { total: number; results: Row[] }; isError: boolean; refetch: () => unknown };
  /** Adds one; rejects with the ApiError when refused (the form shows why and keeps what was typed). */
  create: (body: Body) => Promise<unknown>;
  remove: { mutateAsync: (id: string) => Promise<unknown>; isPending: boolean };
  renderTable: (rows: Row[], onDelete: (row: Row) => void) => ReactNode;
  renderForm: (props: { open: boolean; onClose: () => void; onSubmit: (body: Body) => Promise<void> }) => ReactNode;
}

/** A certificate list screen: header with the add button, loading, error with retry, empty state, table, count. */
export function CertificateListPage<Row extends Named, Body extends { name: string }>({
  ns,
  testId,
  max,
  emptyIcon,
  list,
  create,
  remove,
  renderTable,
  renderForm,
}: CertificateListPageProps<Row, Body>) {
  const { t } = useTranslation();
  const [isAdding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const total = list.data?.total ?? 0;
  const isAtLimit = total >= max;

  const add = async (body: Body) => {
    // A refusal rejects: the dialog shows why, on the field concerned, and keeps what was typed.
    await create(body);
    setAdding(false);
    notify({ severity: 'success', title: t(`${ns}.added`, { name: body.name }) });
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      notify({ severity: 'success', title: t(`${ns}.deleteDialog.deleted`) });
    } catch {
      notify({ severity: 'error', title: t(`${ns}.errors.delete`) });
    } finally {
      setDeleting(null);
    }
  };

  const addButton = (
    <Tooltip title={isAtLimit ? t(`${ns}.errors.limit`) : ''}>
      <Box component="span" sx={{ flexShrink: 0 }}>
        <Button
          variant="contained"
          startIcon={<AddOutlined />}
          onClick={() => setAdding(true)}
          disabled={isAtLimit || !list.data}
          data-testid={`${testId}-add`}
          sx={{ whiteSpace: 'nowrap' }}
        >
          {t(`${ns}.add`)}
        </Button>
      </Box>
    </Tooltip>
  );

  let content: ReactNode;
  if (!list.data) {
    content = list.isError ? (
      <Card
        sx={{ p: 3, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}
        data-testid={`${testId}s-error`}
      >
        <Typography variant="body2" sx={{ color: 'error.main', flex: 1 }}>
          {t(`${ns}.errors.load`)}
        </Typography>
        <Button variant="outlined" color="secondary" onClick={() => void list.refetch()}>
          {t(`${ns}.retry`)}
        </Button>
      </Card>
    ) : (
      <Card sx={{ p: 2 }} data-testid={`${testId}s-loading`}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={56} sx={{ mb: i < 2 ? 1.5 : 0 }} />
        ))}
      </Card>
    );
  } else if (list.data.total === 0) {
    content = (
      <Box data-testid={`${testId}s-empty`}>
        <EmptyState icon={emptyIcon} title={t(`${ns}.emptyTitle`)} body={t(`${ns}.emptyBody`)} action={addButton} />
      </Box>
    );
  } else {
    content = (
      <Card>
        {renderTable(list.data.results, setDeleting)}
        <Box sx={{ px: 2, py: 1.5, borderTop: '1px solid', borderColor: 'divider' }}>
          <Typography variant="caption" sx={{ color: 'text.secondary', fontSize: 13 }} data-testid={`${testId}s-count`}>
            {t(`${ns}.count`, { count: total, max })}
          </Typography>
        </Box>
      </Card>
    );
  }

  return (
    <>
      <PageHeader
        title={t(`${ns}.title`)}
        subtitle={t(`${ns}.subtitle`)}
        actions={list.data && list.data.total > 0 ? addButton : undefined}
      />
      {content}
      {renderForm({ open: isAdding, onClose: () => setAdding(false), onSubmit: add })}
      <ConfirmDialog
        open={deleting !== null}
        title={t(`${ns}.deleteDialog.title`)}
        body={t(`${ns}.deleteDialog.body`, { name: deleting?.name ?? '' })}
        confirmLabel={t(`${ns}.deleteDialog.confirm`)}
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
        confirmTestId={`${testId}-delete-confirm`}
      />
    </>
  );
}

/** A row's name with its kind as a chip (`<ns>.kinds.<kind>`), and what else the screen shows under it. */
export function CertificateName({
  ns,
  testId,
  row,
  kind,
  highlighted,
  children,
}: CertificateListNames & { row: Named; kind: string; highlighted: boolean; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="span" sx={{ color: 'text.primary', overflowWrap: 'anywhere' }}>
          {row.name}
        </Typography>
        <Chip
          size="small"
          label={t(`${ns}.kinds.${kind}`)}
          data-testid={`${testId}-kind-${row.id}`}
          sx={{ height: 22, fontSize: 12, bgcolor: highlighted ? 'primary.50' : 'grey.100' }}
        />
      </Box>
      {children}
    </Box>
  );
}

/** The certificate's subject (a dash for none). */
export function CertificateSubject({
  testId,
  row,
  subject,
}: Pick<CertificateListNames, 'testId'> & {
  row: Named;
  subject: string | null;
}) {
  return (
    <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }} data-testid={`${testId}-subject-${row.id}`}>
      {subject ?? '—'}
    </Typography>
  );
}

/** The SHA-256 fingerprint, shortened with the whole in a tooltip, and a button copying it. */
export function CertificateFingerprint({
  ns,
  testId,
  row,
  fingerprint,
}: CertificateListNames & { row: Named; fingerprint: string | null }) {
  const { t } = useTranslation();
  const copy = useCopyToClipboard();
  if (!fingerprint) return <>—</>;
  const { full, short } = formatFingerprint(fingerprint);
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      <Tooltip title={full}>
        <Box component="code" sx={{ ...mono, whiteSpace: 'nowrap' }} data-testid={`${testId}-fingerprint-${row.id}`}>
          {short}
        </Box>
      </Tooltip>
      <Tooltip title={t(`${ns}.copyFingerprint`)}>
        <IconButton
          size="small"
          aria-label={t(`${ns}.copyFingerprintNamed`, { name: row.name })}
          onClick={() => void copy(full, t(`${ns}.fingerprintCopied`))}
          data-testid={`${testId}-copy-fingerprint-${row.id}`}
        >
          <ContentCopyOutlined sx={{ fontSize: 16 }} />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

/** The date in the language shown. */
export function useFormatDate() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  return (iso: string) => format.format(new Date(iso));
}

/** The expiry date, flagged when it is past or within EXPIRES_SOON_DAYS. */
export function CertificateExpiry({
  ns,
  testId,
  row,
  notAfter,
  now,
}: CertificateListNames & { row: Named; notAfter: string | null; now: Date }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  if (!notAfter) return <>—</>;
  const expiresAt = new Date(notAfter).getTime();
  const isExpired = expiresAt <= now.getTime();
  const isSoon = !isExpired && expiresAt - now.getTime() < EXPIRES_SOON_DAYS * 86_400_000;
  return (
    <Box
      component="span"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
      data-testid={`${testId}-expires-${row.id}`}
    >
      <Typography variant="body2" component="span">
        {formatDate(notAfter)}
      </Typography>
      {(isExpired || isSoon) && (
        <Chip
          size="small"
          color={isExpired ? 'error' : 'warning'}
          variant="outlined"
          label={t(isExpired ? `${ns}.expired` : `${ns}.expiresSoon`)}
          sx={{ height: 22, fontSize: 12 }}
        />
      )}
    </Box>
  );
}

/** The row's remove button. */
export function CertificateDeleteAction<Row extends Named>({
  ns,
  testId,
  row,
  onDelete,
}: CertificateListNames & { row: Row; onDelete: (row: Row) => void }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t(`${ns}.delete`)}>
      <IconButton
        aria-label={t(`${ns}.deleteNamed`, { name: row.name })}
        onClick={() => onDelete(row)}
        data-testid={`${testId}-delete-${row.id}`}
        sx={{ '&:hover': { color: 'error.main' } }}
      >
        <DeleteOutlineOutlined fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

/** On phones: the row's name and actions on top, then its facts as a list of terms and values. */
export function CertificateMobileItem({
  name,
  actions,
  children,
}: {
  name: ReactNode;
  actions: ReactNode;
  /** `<dt>` / `<dd>` pairs. */
  children: ReactNode;
}) {
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
        {name}
        <Box sx={{ mr: -1, mt: -0.5, flexShrink: 0 }}>{actions}</Box>
      </Box>
      <MobileFacts>{children}</MobileFacts>
    </>
  );
}

/**
 * A PEM certificate field of a form: pasted, or read from a file (PEM or DER). Checked on submit: required, and
 * `isPem` (the contract's own schema) or `<ns>.form.pemInvalid`; the API's refusals are set on it by the form.
 */
export function PemCertificateField<T extends FieldValues>({
  ns,
  form,
  name,
  label,
  testId,
  maxLength,
  isPem,
}: {
  ns: string;
  form: UseFormReturn<T>;
  name: Path<T>;
  label: string;
  testId: string;
  maxLength: number;
  isPem: (text: string) => boolean;
}) {
  const { t } = useTranslation();
  const { register, setValue, formState } = form;
  const fileInput = useRef<HTMLInputElement>(null);
  const error = formState.errors[name];
  const message = typeof error?.message === 'string' ? error.message : undefined;

  const upload = async (file: File | undefined) => {
    if (!file) return;
    const pem = await readCertificateFile(file).catch(() => '');
    setValue(name, pem as PathValue<T, Path<T>>, { shouldValidate: formState.isSubmitted, shouldDirty: true });
  };

  return (
    <Box>
      <TextField
        label={label}
        placeholder={'-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----'}
        required
        fullWidth
        multiline
        minRows={5}
        maxRows={12}
        error={Boolean(error)}
        helperText={message ?? t(`${ns}.form.pemHelper`)}
        slotProps={{
          htmlInput: { 'data-testid': testId, maxLength, spellCheck: false, style: mono },
          formHelperText: { sx: { whiteSpace: 'pre-line' } },
        }}
        {...register(name, {
          validate: (value: string) => {
            const text = value.trim();
            if (!text) return t('validation.required');
            return isPem(text) || t(`${ns}.form.pemInvalid`);
          },
        })}
      />
      <Button
        size="small"
        color="secondary"
        startIcon={<UploadFileOutlined />}
        onClick={() => fileInput.current?.click()}
        sx={{ mt: 1 }}
        data-testid={`${testId}-upload`}
      >
        {t(`${ns}.form.upload`)}
      </Button>
      <input
        ref={fileInput}
        type="file"
        hidden
        accept=".pem,.crt,.cer,.der,application/x-pem-file,application/x-x509-ca-cert,application/pkix-cert"
        data-testid={`${testId}-file`}
        onChange={(event) => {
          void upload(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
    </Box>
  );
}
