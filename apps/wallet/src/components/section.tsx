import Card from '@mui/material/Card';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A titled card section of a page. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card variant="outlined" sx={{ p: 2 }}>
      <Typography variant="overline" component="h2" sx={{ color: 'text.secondary', lineHeight: 2 }}>
        {title}
      </Typography>
      {children}
    </Card>
  );
}

export function PageTitle({ children }: { children: ReactNode }) {
  return (
    <Typography variant="h2" component="h1" sx={{ mb: 2 }}>
      {children}
    </Typography>
  );
}
