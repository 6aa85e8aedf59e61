import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import { LanguageSelect } from '../../../components/language-select.tsx';

/** The frame of the public holder pages: the language choice (no sign-in, no settings) above the page's card. */
export function HolderPage({
  testId,
  languageTestId,
  children,
}: {
  testId: string;
  languageTestId: string;
  children: ReactNode;
}) {
  return (
    <Box data-testid={testId}>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 2 }}>
        <LanguageSelect testId={languageTestId} />
      </Box>
      {children}
    </Box>
  );
}
