import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A centred outcome of the holder pages (inside their card): an icon, a title, a sentence and optional content. */
export function StateCard({
  testId,
  status,
  icon,
  title,
  body,
  children,
}: {
  testId: string;
  status: string;
  icon: ReactNode;
  title: string;
  body: string;
  children?: ReactNode;
}) {
  return (
    <Box sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }} data-testid={testId} data-status={status}>
      <Box sx={{ fontSize: 56, display: 'flex', justifyContent: 'center', mb: 2 }}>{icon}</Box>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      <Typography variant="body1" sx={{ color: 'text.secondary' }}>
        {body}
      </Typography>
      {children}
    </Box>
  );
}
