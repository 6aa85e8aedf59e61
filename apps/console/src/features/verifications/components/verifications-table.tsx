import type { Verification, VerificationType } from '@cp/contracts';
import { visuallyHidden } from '@cp/ui';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import QrCode2Outlined from '@mui/icons-material/QrCode2Outlined';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Fragment } from 'react';
import { MobileFacts } from '../../../components/mobile-facts.tsx';
import { RouterLink } from '../../../components/router-link.tsx';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { creatorName, credentialTypeName, formatDate } from './format.ts';
import { VerificationStatusChip } from './verification-status-chip.tsx';

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 } as const;

export interface VerificationActions {
  onCopyLink: (verification: Verification) => void;
  onShowQr: (verification: Verification) => void;
  onHistory: (verification: Verification) => void;
  onDelete: (verification: Verification) => void;
}

interface Props extends VerificationActions {
  type: VerificationType;
  verifications: Verification[];
}

/**
 * One list (reusable or single-use): a table on wide screens, stacked cards on phones and tablets (the table
 * needs about 800 px beside the side menu); the same test ids in both.
 */
export function VerificationsTable(props: Props) {
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('lg'), { noSsr: true });
  return isDesktop ? <DesktopTable {...props} /> : <MobileList {...props} />;
}

function Usage({ verification }: { verification: Verification }) {
  const { t } = useTranslation();
  const { total, verified, failed } = verification.usage;
  return (
    <Box data-testid={`verification-usage-${verification.id}`}>
      <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
        {t('verifications.list.usageTotal', { count: total })}
      </Typography>
      <Typography variant="caption" component="div" sx={{ color: 'text.secondary', fontSize: 13 }}>
        <Box component="span" sx={{ color: verified > 0 ? 'success.main' : undefined }}>
          {t('verifications.list.usageVerified', { count: verified })}
        </Box>
        {' · '}
        <Box component="span" sx={{ color: failed > 0 ? 'error.main' : undefined }}>
          {t('verifications.list.usageFailed', { count: failed })}
        </Box>
      </Typography>
    </Box>
  );
}

function DesktopTable({ type, verifications, ...actions }: Props) {
  const { t, i18n } = useTranslation();
  const isSingle = type === 'SINGLE';
  return (
    <ScrollRegion label={t(`verifications.types.${type}`)}>
      <Table data-testid={`verifications-table-${type}`} sx={{ minWidth: 760 }}>
        <TableHead>
          <TableRow sx={{ '& th': { whiteSpace: 'nowrap' } }}>
            <TableCell>{t('verifications.list.columns.name')}</TableCell>
            <TableCell>{t('verifications.list.columns.proofId')}</TableCell>
            <TableCell>{t('verifications.list.columns.usage')}</TableCell>
            {isSingle && <TableCell>{t('verifications.list.columns.status')}</TableCell>}
            <TableCell>{t('verifications.list.columns.createdBy')}</TableCell>
            <TableCell align="right">
              <Box component="span" sx={visuallyHidden}>
                {t('verifications.list.columns.actions')}
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {verifications.map((verification) => (
            <TableRow key={verification.id} hover data-testid={`verification-row-${verification.id}`}>
              <TableCell sx={{ maxWidth: 280 }}>
                <Typography variant="subtitle1" sx={{ color: 'text.primary', overflowWrap: 'anywhere' }}>
                  {verification.name}
                </Typography>
                <Typography variant="caption" sx={{ color: 'text.secondary', fontSize: 13, overflowWrap: 'anywhere' }}>
                  {credentialTypeName(verification, i18n)}
                </Typography>
              </TableCell>
              <TableCell>
                <Box component="code" sx={{ ...mono, whiteSpace: 'nowrap' }}>
                  {verification.present_id}
                </Box>
              </TableCell>
              <TableCell>
                <Usage verification={verification} />
              </TableCell>
              {isSingle && (
                <TableCell>
                  <VerificationStatusChip
                    status={verification.status}
                    testId={`verification-status-${verification.id}`}
                  />
                </TableCell>
              )}
              <TableCell sx={{ maxWidth: 200 }}>
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {creatorName(verification, t)}
                </Typography>
                <Typography variant="caption" sx={{ color: 'text.secondary', fontSize: 13, whiteSpace: 'nowrap' }}>
                  {formatDate(verification.created_at, i18n.language)}
                </Typography>
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap', px: 1 }}>
                <RowActions verification={verification} dense {...actions} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}

function MobileList({ type, verifications, ...actions }: Props) {
  const { t, i18n } = useTranslation();
  return (
    <Box component="ul" data-testid={`verifications-table-${type}`} sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {verifications.map((verification, index) => (
        <Fragment key={verification.id}>
          {index > 0 && <Divider component="li" aria-hidden />}
          <Box component="li" data-testid={`verification-row-${verification.id}`} sx={{ px: 2, pt: 1.5, pb: 1 }}>
            <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="subtitle2" sx={{ overflowWrap: 'anywhere' }}>
                  {verification.name}
                </Typography>
                <Typography variant="caption" sx={{ color: 'text.secondary', fontSize: 13, overflowWrap: 'anywhere' }}>
                  {credentialTypeName(verification, i18n)}
                </Typography>
              </Box>
              {type === 'SINGLE' && (
                <VerificationStatusChip
                  status={verification.status}
                  testId={`verification-status-${verification.id}`}
                />
              )}
            </Box>
            <MobileFacts>
              <dt>{t('verifications.list.columns.proofId')}</dt>
              <dd>
                <Box component="code" sx={mono}>
                  {verification.present_id}
                </Box>
              </dd>
              <dt>{t('verifications.list.columns.usage')}</dt>
              <dd>
                <Usage verification={verification} />
              </dd>
              <dt>{t('verifications.list.columns.createdBy')}</dt>
              <dd>
                {creatorName(verification, t)} · {formatDate(verification.created_at, i18n.language)}
              </dd>
            </MobileFacts>
            <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 0.5, mr: -1 }}>
              <RowActions verification={verification} {...actions} />
            </Box>
          </Box>
        </Fragment>
      ))}
    </Box>
  );
}

function RowActions({
  verification,
  onCopyLink,
  onShowQr,
  onHistory,
  onDelete,
  dense = false,
}: VerificationActions & { verification: Verification; dense?: boolean }) {
  const { t } = useTranslation();
  const id = verification.id;
  return (
    <>
      <Tooltip title={t('verifications.list.copyLink')}>
        <IconButton
          size={dense ? 'small' : 'medium'}
          aria-label={t('verifications.list.copyLink')}
          onClick={() => onCopyLink(verification)}
          data-testid={`verification-copy-${id}`}
        >
          <ContentCopyOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={t('verifications.list.showQr')}>
        <IconButton
          size={dense ? 'small' : 'medium'}
          aria-label={t('verifications.list.showQr')}
          onClick={() => onShowQr(verification)}
          data-testid={`verification-qr-${id}`}
        >
          <QrCode2Outlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={t('verifications.list.history')}>
        <IconButton
          size={dense ? 'small' : 'medium'}
          aria-label={t('verifications.list.history')}
          onClick={() => onHistory(verification)}
          data-testid={`verification-history-${id}`}
        >
          <HistoryOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={t('verifications.list.edit')}>
        <IconButton
          size={dense ? 'small' : 'medium'}
          aria-label={t('verifications.list.edit')}
          component={RouterLink}
          to={`/verifications/edit/${id}`}
          data-testid={`verification-edit-${id}`}
        >
          <EditOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={t('verifications.list.delete')}>
        <IconButton
          size={dense ? 'small' : 'medium'}
          aria-label={t('verifications.list.delete')}
          onClick={() => onDelete(verification)}
          data-testid={`verification-delete-${id}`}
        >
          <DeleteOutlineOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
    </>
  );
}
