import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';

/**
 * A row's facts on a phone (or in a detail): `<dt>` / `<dd>` pairs in two columns, the terms muted, long values
 * wrapping anywhere. `sx` adds to (or overrides) the grid: spacing, indentation.
 */
export function MobileFacts({ children, sx, testId }: { children: ReactNode; sx?: SxProps<Theme>; testId?: string }) {
  return (
    <Box
      component="dl"
      data-testid={testId}
      sx={[
        {
          m: 0,
          mt: 1,
          display: 'grid',
          gridTemplateColumns: 'auto minmax(0, 1fr)',
          columnGap: 2,
          rowGap: 0.5,
          alignItems: 'baseline',
          '& dt': { color: 'text.secondary', typography: 'body2' },
          '& dd': { m: 0, typography: 'body2', minWidth: 0, overflowWrap: 'anywhere' },
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      {children}
    </Box>
  );
}
