import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A centred card with an icon, a title, a sentence and an optional action. */
export function EmptyState({
  icon,
  title,
  body,
  action,
}: {
  icon: ReactNode;
  title: string;
  body: string;
  action?: ReactNode;
}) {
  return (
    <Card sx={{ px: { xs: 3, md: 6 }, py: { xs: 5, md: 8 }, textAlign: 'center' }}>
      <Box
        sx={{
          width: 56,
          height: 56,
          mx: 'auto',
          mb: 2.5,
          borderRadius: '50%',
          display: 'grid',
          placeItems: 'center',
          bgcolor: 'primary.50',
          color: 'primary.main',
          outline: '8px solid',
          outlineColor: 'primary.25',
        }}
      >
        {icon}
      </Box>
      <Typography variant="h4" component="h2" sx={{ fontSize: 18, lineHeight: '28px' }}>
        {title}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1, maxWidth: 440, mx: 'auto' }}>
        {body}
      </Typography>
      {action && <Box sx={{ mt: 3 }}>{action}</Box>}
    </Card>
  );
}
