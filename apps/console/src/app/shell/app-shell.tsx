import { MAIN_CONTENT_ID, SkipLink } from '@cp/ui';
import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import { useTheme } from '@mui/material/styles';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { TwoFactorRequiredPage } from '../../features/auth/components/two-factor-required-page.tsx';
import { loadWorkspacePagesMessages, useTranslation } from '../../i18n/index.ts';
import { useIdentity } from '../../lib/identity-context.ts';
import { whenIdle } from '../../lib/lazy-component.ts';
import { useTwoFactorRequired } from '../../lib/two-factor-required.ts';
import { SideMenu } from './side-menu.tsx';

const SIDEBAR_WIDTH = 280;

/**
 * The signed-in frame: a permanent side menu from `md` up, a top bar with a slide-out menu below. Only one of
 * the two is mounted, so every test id exists once on the page. Landmarks: a skip link first, the top bar is the
 * `<header>`, the side menu a named `<nav>`, the page the `<main>` the skip link leads to.
 */
export function AppShell() {
  const { t } = useTranslation();
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [mobileOpen, setMobileOpen] = useState(false);
  const { pathname } = useLocation();
  const { current } = useIdentity();
  // The current organization refused this session for want of a two-step sign-in: say so instead of the page.
  const twoFactorRequired = useTwoFactorRequired(current?.id);

  // The other pages' messages are not part of the first page: fetch them once the browser is idle, so the next page
  // does not wait for them (each route still awaits them should this not have finished).
  useEffect(() => whenIdle(() => void loadWorkspacePagesMessages().catch(() => undefined)), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: closing on every navigation is the point.
  useEffect(() => setMobileOpen(false), [pathname]);

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <SkipLink label={t('common.skipToContent')} />
      {isDesktop ? (
        <Drawer
          variant="permanent"
          sx={{
            width: SIDEBAR_WIDTH,
            flexShrink: 0,
            '& .MuiDrawer-paper': { width: SIDEBAR_WIDTH, boxSizing: 'border-box', borderColor: 'grey.200' },
          }}
        >
          <SideMenu />
        </Drawer>
      ) : (
        <>
          <AppBar
            position="fixed"
            color="inherit"
            elevation={0}
            sx={{ borderBottom: 1, borderColor: 'grey.200', bgcolor: 'background.paper' }}
          >
            <Toolbar sx={{ justifyContent: 'space-between' }}>
              <BrandLogo />
              <IconButton
                edge="end"
                aria-label={t('nav.openMenu')}
                aria-expanded={mobileOpen ? 'true' : 'false'}
                data-testid="mobile-menu-button"
                onClick={() => setMobileOpen(true)}
              >
                <MenuIcon />
              </IconButton>
            </Toolbar>
          </AppBar>
          <Drawer
            variant="temporary"
            open={mobileOpen}
            onClose={() => setMobileOpen(false)}
            // The open drawer is a modal dialog: it needs a name (WAI-ARIA 1.2 `dialog`).
            slotProps={{ paper: { 'aria-label': t('nav.mainNavigation') } }}
            sx={{ '& .MuiDrawer-paper': { width: 'min(320px, 88vw)', boxSizing: 'border-box' } }}
          >
            <SideMenu onNavigate={() => setMobileOpen(false)} onClose={() => setMobileOpen(false)} />
          </Drawer>
        </>
      )}
      <Box
        component="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        sx={{ flex: 1, minWidth: 0, px: { xs: 2, sm: 3, md: 5 }, py: { xs: 3, md: 5 } }}
      >
        {!isDesktop && <Toolbar />}
        <Box sx={{ maxWidth: 1080, mx: 'auto' }}>
          {twoFactorRequired && current ? <TwoFactorRequiredPage organization={current} /> : <Outlet />}
        </Box>
      </Box>
    </Box>
  );
}
