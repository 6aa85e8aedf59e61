import type { KybReview, UploadedMedia } from '@cp/contracts';
import AttachFileOutlined from '@mui/icons-material/AttachFileOutlined';
import GppGoodOutlined from '@mui/icons-material/GppGoodOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { notify } from '../../../lib/notifications.ts';
import { useKybReviews } from '../api/find-kyb-reviews.ts';
import { useIsPlatformAdmin } from '../api/get-reviewer.ts';
import { useReviewKybApplication } from '../api/review-kyb-application.ts';
import { KybDocumentViewer } from './kyb-document-viewer.tsx';

const PAGE_SIZE = 10;

/** /admin/kyb: pending verification applications for platform administrators (oldest first). */
export function KybReviewPage() {
  const { t } = useTranslation();
  const isAdmin = useIsPlatformAdmin();
  return (
    <>
      <PageHeader title={t('kyb.review.title')} subtitle={t('kyb.review.subtitle')} />
      {isAdmin.data === false ? (
        <EmptyState
          icon={<LockOutlined />}
          title={t('kyb.review.forbiddenTitle')}
          body={t('kyb.review.forbiddenBody')}
        />
      ) : isAdmin.data ? (
        <ReviewQueue />
      ) : (
        <Skeleton variant="rounded" height={240} />
      )}
    </>
  );
}

function ReviewQueue() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const reviews = useKybReviews({ status: 'PENDING', page, limit: PAGE_SIZE });
  const review = useReviewKybApplication();
  const [viewing, setViewing] = useState<UploadedMedia | null>(null);
  const [rejecting, setRejecting] = useState<KybReview | null>(null);
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  const approve = async (application: KybReview) => {
    try {
      await review.mutateAsync({ applicationId: application.id, status: 'APPROVED' });
      notify({ severity: 'success', title: t('kyb.review.approved', { name: application.organization_name }) });
    } catch {
      notify({ severity: 'error', title: t('kyb.review.failed'), message: t('catalogue.verifyOrganization') });
    }
  };

  if (reviews.isPending) return <Skeleton variant="rounded" height={240} />;
  if (reviews.isError) {
    return (
      <EmptyState
        icon={<GppGoodOutlined />}
        title={t('catalogue.verifyOrganization')}
        body={t('kyb.review.loadFailed')}
        action={
          <Button variant="outlined" onClick={() => reviews.refetch()}>
            {t('kyb.review.retry')}
          </Button>
        }
      />
    );
  }
  const { results, total } = reviews.data;
  if (total === 0) {
    return (
      <EmptyState icon={<GppGoodOutlined />} title={t('kyb.review.emptyTitle')} body={t('kyb.review.emptyBody')} />
    );
  }

  return (
    <Card>
      <ScrollRegion label={t('kyb.review.title')}>
        <Table data-testid="admin-kyb-table" sx={{ minWidth: 720 }}>
          <TableHead>
            <TableRow>
              <TableCell>{t('kyb.review.organization')}</TableCell>
              <TableCell>{t('kyb.review.submittedAt')}</TableCell>
              <TableCell>{t('kyb.review.documents')}</TableCell>
              <TableCell align="right">{t('kyb.review.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {results.map((application) => (
              <TableRow key={application.id} data-testid={`admin-kyb-row-${application.id}`}>
                <TableCell>
                  <Typography variant="subtitle2">{application.organization_name}</Typography>
                  <Typography variant="caption" sx={{ color: 'text.secondary', fontFamily: 'monospace' }}>
                    {application.organization_id}
                  </Typography>
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {dateFormat.format(new Date(application.submitted_at))}
                </TableCell>
                <TableCell>
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75 }}>
                    {application.documents.map((document) => (
                      <Chip
                        key={document.id}
                        icon={<AttachFileOutlined />}
                        label={document.filename}
                        size="small"
                        variant="outlined"
                        onClick={() => setViewing(document)}
                        data-testid={`admin-kyb-document-${document.id}`}
                        sx={{ maxWidth: 220 }}
                      />
                    ))}
                  </Box>
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <Button
                    size="small"
                    color="error"
                    onClick={() => setRejecting(application)}
                    disabled={review.isPending}
                    data-testid={`admin-kyb-reject-${application.id}`}
                    sx={{ mr: 1 }}
                  >
                    {t('kyb.review.reject')}
                  </Button>
                  <Button
                    size="small"
                    variant="contained"
                    onClick={() => approve(application)}
                    disabled={review.isPending}
                    data-testid={`admin-kyb-approve-${application.id}`}
                  >
                    {t('kyb.review.approve')}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ScrollRegion>
      {total > PAGE_SIZE && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
          <Pagination count={Math.ceil(total / PAGE_SIZE)} page={page} onChange={(_, value) => setPage(value)} />
        </Box>
      )}
      {viewing && <KybDocumentViewer document={viewing} onClose={() => setViewing(null)} />}
      {rejecting && <RejectDialog application={rejecting} onClose={() => setRejecting(null)} />}
    </Card>
  );
}

function RejectDialog({ application, onClose }: { application: KybReview; onClose: () => void }) {
  const { t } = useTranslation();
  const review = useReviewKybApplication();
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const missing = reason.trim().length === 0;

  const confirm = async () => {
    setTouched(true);
    if (missing) return;
    try {
      await review.mutateAsync({ applicationId: application.id, status: 'REJECTED', reason: reason.trim() });
      notify({ severity: 'success', title: t('kyb.review.rejected', { name: application.organization_name }) });
      onClose();
    } catch {
      notify({ severity: 'error', title: t('kyb.review.failed'), message: t('catalogue.verifyOrganization') });
    }
  };

  return (
    <Dialog open onClose={review.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t('kyb.review.rejectTitle', { name: application.organization_name })}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
          {t('kyb.review.rejectBody')}
        </Typography>
        <TextField
          autoFocus
          fullWidth
          multiline
          minRows={3}
          required
          label={t('kyb.review.reason')}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          onBlur={() => setTouched(true)}
          error={touched && missing}
          helperText={touched && missing ? t('kyb.review.reasonRequired') : undefined}
          slotProps={{ htmlInput: { 'data-testid': 'admin-kyb-reason', maxLength: 2000 } }}
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button color="secondary" onClick={onClose} disabled={review.isPending}>
          {t('kyb.review.cancel')}
        </Button>
        <Button
          variant="contained"
          color="error"
          onClick={confirm}
          disabled={review.isPending || missing}
          data-testid="admin-kyb-reject-confirm"
        >
          {t('kyb.review.rejectConfirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
