import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { IMPORTED_PAGE_SIZE, useImportedRecipients } from '../api/find-imported-recipients.ts';

/** The recipients one CSV import created, read back from the API a page at a time (an import can be huge). */
export function ImportedRecipients({
  organizationId,
  importId,
  index,
}: {
  organizationId: string;
  importId: string;
  index: number;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useImportedRecipients(organizationId, importId, page);
  const total = list.data?.total ?? 0;
  return (
    <Box data-testid={`imported-recipients-${index}`} data-total={list.data ? total : undefined} sx={{ mt: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, flexWrap: 'wrap' }}>
        <Chip size="small" color="primary" variant="outlined" label={t('issuing.recipients.csvChip')} />
        <Typography variant="subtitle2">
          {list.data ? t('issuing.recipients.imported', { count: total }) : t('issuing.recipients.importLoading')}
        </Typography>
      </Box>
      {list.isError && (
        <Typography variant="body2" sx={{ color: 'error.main' }}>
          {t('catalogue.getCredentials')}
        </Typography>
      )}
      {!list.data && !list.isError && <Skeleton height={80} />}
      {list.data && total > 0 && (
        <ScrollRegion label={t('issuing.recipients.imported', { count: total })}>
          <Table size="small" sx={{ minWidth: 520 }} aria-label={t('issuing.recipients.imported', { count: total })}>
            <TableHead>
              <TableRow>
                <TableCell>{t('issuing.recipients.email')}</TableCell>
                <TableCell>{t('issuing.recipients.firstName')}</TableCell>
                <TableCell>{t('issuing.recipients.lastName')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.data.results.map((credential) => (
                <TableRow key={credential.id} data-testid={`imported-row-${credential.id}`}>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{credential.recipient.email}</TableCell>
                  <TableCell>{credential.recipient.first_name}</TableCell>
                  <TableCell>{credential.recipient.last_name}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ScrollRegion>
      )}
      {total > IMPORTED_PAGE_SIZE && (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 1.5 }}>
          <Pagination
            size="small"
            count={Math.ceil(total / IMPORTED_PAGE_SIZE)}
            page={page}
            onChange={(_, next) => setPage(next)}
          />
        </Box>
      )}
    </Box>
  );
}
