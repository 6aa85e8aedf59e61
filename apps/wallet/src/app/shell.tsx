import { MAIN_CONTENT_ID, SkipLink } from '@cp/ui';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import QrCodeScannerOutlined from '@mui/icons-material/QrCodeScannerOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import WalletOutlined from '@mui/icons-material/WalletOutlined';
import AppBar from '@mui/material/AppBar';
import BottomNavigation from '@mui/material/BottomNavigation';
import BottomNavigationAction from '@mui/material/BottomNavigationAction';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import { useTheme } from '@mui/material/styles';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useVaultState } from './vault-context.tsx';

const NAV_ITEMS = [
  { key: 'credentials', to: '/', icon: <WalletOutlined />, matches: ['/', '/credentials'] },
  { key: 'scan', to: '/scan', icon: <QrCodeScannerOutlined />, matches: ['/scan', '/receive', '/present'] },
  { key: 'history', to: '/history', icon: <HistoryOutlined />, matches: ['/history'] },
  { key: 'settings', to: '/settings', icon: <SettingsOutlined />, matches: ['/settings'] },
] as const;

function activeKey(pathname: string): string | false {
  for (const item of NAV_ITEMS) {
    if (item.matches.some((prefix) => (prefix === '/' ? pathname === '/' : pathname.startsWith(prefix)))) {
      return item.key;
    }
  }
  return false;
}

/** Phone-first: a bottom navigation on phones, the same items in the top bar from `md` up. */
export function Shell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('md'));
  const { pathname } = useLocation();
  const active = activeKey(pathname);
  const { lock } = useVaultState();

  return (
    <Box sx={{ minHeight: '100dvh', bgcolor: 'background.default', display: 'flex', flexDirection: 'column' }}>
      <SkipLink label={t('app.skipToContent')} />
      {/* AppBar is the page's <header>; the navigation is a named <nav>; the page is the <main>. */}
      <AppBar position="sticky" color="primary" elevation={0}>
        <Toolbar sx={{ gap: 1, maxWidth: 960, width: '100%', mx: 'auto' }}>
          <WalletOutlined />
          <Typography variant="h6" component="span" sx={{ fontWeight: 600, flexGrow: 1 }}>
            {t('app.name')}
          </Typography>
          {isDesktop && (
            <Box component="nav" aria-label={t('nav.main')} sx={{ display: 'flex', gap: 0.5 }}>
              {NAV_ITEMS.map((item) => (
                <Button
                  key={item.key}
                  component={Link}
                  to={item.to}
                  color="inherit"
                  startIcon={item.icon}
                  aria-current={active === item.key ? 'page' : undefined}
                  sx={{
                    opacity: active === item.key ? 1 : 0.8,
                    bgcolor: active === item.key ? 'rgba(255,255,255,0.14)' : undefined,
                  }}
                >
                  {t(`nav.${item.key}`)}
                </Button>
              ))}
            </Box>
          )}
          {/* Always at hand, on phones too: the wallet otherwise stays open for the idle time set in Settings. */}
          <Tooltip title={t('settings.lock')}>
            <IconButton
              color="inherit"
              edge="end"
              onClick={lock}
              aria-label={t('settings.lock')}
              data-testid="lock-now"
            >
              <LockOutlined />
            </IconButton>
          </Tooltip>
        </Toolbar>
      </AppBar>
      <Box
        component="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        sx={{
          flexGrow: 1,
          width: '100%',
          maxWidth: 640,
          mx: 'auto',
          px: 2,
          pt: 3,
          pb: isDesktop ? 4 : 11,
        }}
      >
        {children}
      </Box>
      {!isDesktop && (
        <Paper
          component="nav"
          aria-label={t('nav.main')}
          elevation={8}
          sx={{ position: 'fixed', left: 0, right: 0, bottom: 0, pb: 'env(safe-area-inset-bottom)', zIndex: 'appBar' }}
        >
          <BottomNavigation showLabels value={active}>
            {NAV_ITEMS.map((item) => (
              <BottomNavigationAction
                key={item.key}
                value={item.key}
                label={t(`nav.${item.key}`)}
                icon={item.icon}
                component={Link}
                to={item.to}
              />
            ))}
          </BottomNavigation>
        </Paper>
      )}
    </Box>
  );
}
