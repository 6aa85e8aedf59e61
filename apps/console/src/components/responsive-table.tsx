import { visuallyHidden } from '@cp/ui';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import type { Breakpoint, SxProps, Theme } from '@mui/material/styles';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Fragment, type ReactNode } from 'react';
import { ScrollRegion } from './scroll-region.tsx';

export interface ResponsiveTableColumn<Row> {
  id: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  sx?: SxProps<Theme>;
}

/**
 * A list of rows as a table from `tableFrom` up (`md` unless said otherwise; a last, right-aligned column of row
 * actions) and as stacked items below it, each item laid out by `renderMobileItem`; the same test ids in both.
 * A table with many columns needs a later `tableFrom`: the side menu takes 280 px of the window from `md` up.
 */
export function ResponsiveTable<Row extends { id: string }>({
  rows,
  columns,
  label,
  actionsLabel,
  renderActions,
  renderMobileItem,
  testId,
  rowTestId,
  tableFrom = 'md',
}: {
  rows: Row[];
  columns: ResponsiveTableColumn<Row>[];
  /** What the table lists: names the scrolling region when the table is wider than the page. */
  label: string;
  /** Read by screen readers only: the actions column has no visible header. */
  actionsLabel?: string;
  /** Row actions in a last column; without it the table has no actions column (a read-only list). */
  renderActions?: (row: Row) => ReactNode;
  renderMobileItem: (row: Row) => ReactNode;
  testId: string;
  rowTestId: (row: Row) => string;
  tableFrom?: Breakpoint;
}) {
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up(tableFrom), { noSsr: true });
  if (!isDesktop) {
    return (
      <Box component="ul" data-testid={testId} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {rows.map((row, index) => (
          <Fragment key={row.id}>
            {index > 0 && <Divider component="li" aria-hidden />}
            <Box component="li" data-testid={rowTestId(row)} sx={{ px: 2, py: 1.5 }}>
              {renderMobileItem(row)}
            </Box>
          </Fragment>
        ))}
      </Box>
    );
  }
  return (
    <ScrollRegion label={label}>
      <Table data-testid={testId} sx={{ minWidth: 760 }}>
        <TableHead>
          <TableRow
            sx={{ '& th': { color: 'text.secondary', fontWeight: 500, bgcolor: 'grey.50', whiteSpace: 'nowrap' } }}
          >
            {columns.map((column) => (
              <TableCell key={column.id}>{column.header}</TableCell>
            ))}
            {renderActions && (
              <TableCell align="right">
                <Box component="span" sx={visuallyHidden}>
                  {actionsLabel}
                </Box>
              </TableCell>
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id} hover data-testid={rowTestId(row)}>
              {columns.map((column) => (
                <TableCell key={column.id} sx={column.sx}>
                  {column.cell(row)}
                </TableCell>
              ))}
              {renderActions && (
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {renderActions(row)}
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}
