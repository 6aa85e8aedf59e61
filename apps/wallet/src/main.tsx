import { createAppTheme } from '@cp/ui';
import WalletOutlined from '@mui/icons-material/WalletOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { messages, pickLanguage } from './messages.ts';

const language = pickLanguage(window.location.search, window.navigator.languages ?? [window.navigator.language]);
const text = messages[language];
document.documentElement.lang = language;
document.title = text.title;

function WalletPage() {
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', px: 2, bgcolor: 'grey.50' }}>
      <Card sx={{ width: '100%', maxWidth: 440, p: { xs: 3, sm: 5 }, textAlign: 'center' }}>
        <Box
          sx={{
            width: 64,
            height: 64,
            mx: 'auto',
            mb: 3,
            borderRadius: 3,
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'primary.main',
            color: 'primary.contrastText',
          }}
        >
          <WalletOutlined sx={{ fontSize: 32 }} />
        </Box>
        <Typography variant="h3" component="h1">
          {text.title}
        </Typography>
        <Typography variant="body1" sx={{ color: 'text.secondary', mt: 1.5 }}>
          {text.body}
        </Typography>
        <Chip label={text.soon} size="small" color="primary" variant="outlined" sx={{ mt: 3 }} />
      </Card>
    </Box>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <ThemeProvider theme={createAppTheme()}>
      <CssBaseline />
      <WalletPage />
    </ThemeProvider>
  </StrictMode>,
);
