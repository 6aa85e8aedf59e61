import { MAIN_CONTENT_ID, SkipLink } from '@cp/ui';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type ComponentType, Suspense, use, useEffect } from 'react';
import { Outlet } from 'react-router';
import { loadWorkspacePagesMessages, useTranslation } from '../../i18n/index.ts';
import { useIdentity } from '../../lib/identity-context.ts';
import { lazyComponent, whenIdle } from '../../lib/lazy-component.ts';
import { useTwoFactorRequired } from '../../lib/two-factor-required.ts';
import { isDesktopViewport } from './desktop-viewport.ts';
import { SideMenu } from './side-menu.tsx';

const SIDEBAR_WIDTH = 280;

// Shown only when the current organization refuses this session (it requires a two-step sign-in): its code and its
// messages (the workspace-pages part) come then, not with every first page (issue 16).
const TwoFactorRequiredPage = lazyComponent(() =>
  Promise.all([
    import('../../features/auth/components/two-factor-required-page.tsx'),
    loadWorkspacePagesMessages(),
  ]).then(([m]) => m.TwoFactorRequiredPage),
);

let MobileNavigation: ComponentType | undefined;
let loadingMobileNavigation: Promise<ComponentType> | undefined;
function loadMobileNavigation(): Promise<ComponentType> {
  loadingMobileNavigation ??= import('./mobile-navigation.tsx').then(
    (m) => {
      MobileNavigation = m.MobileNavigation;
      return m.MobileNavigation;
    },
    (error: unknown) => {
      loadingMobileNavigation = undefined; // Tried again on the next render (offline).
      throw error;
    },
  );
  return loadingMobileNavigation;
}

/**
 * The router awaits this with the shell's code (routes/router.tsx): in a narrow window the top bar is in before the
 * first paint, so the page never appears without it.
 */
export function preloadAppShell(): Promise<void> {
  if (isDesktopViewport()) return Promise.resolve();
  return loadMobileNavigation().then(() => undefined);
}

function LazyMobileNavigation() {
  const Component = MobileNavigation ?? use(loadMobileNavigation());
  return <Component />;
}

/**
 * The signed-in frame: a permanent side menu from `md` up, a top bar with a slide-out menu below (its own chunk,
 * mobile-navigation.tsx). Only one of the two is mounted, so every test id exists once on the page. Landmarks: a skip
 * link first, the top bar is the `<header>`, the side menu a named `<nav>`, the page the `<main>` the skip link leads
 * to. The desktop side menu is laid out as MUI's permanent Drawer lays out its paper, without the Drawer (which
 * brings the modal, the slide transition and the backdrop of the temporary one).
 */
export function AppShell() {
  const { t } = useTranslation();
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const { current } = useIdentity();
  // The current organization refused this session for want of a two-step sign-in: say so instead of the page.
  const twoFactorRequired = useTwoFactorRequired(current?.id);

  // The other pages' messages are not part of the first page: fetch them once the browser is idle, so the next page
  // does not wait for them (each route still awaits them should this not have finished).
  useEffect(() => whenIdle(() => void loadWorkspacePagesMessages().catch(() => undefined)), []);

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <SkipLink label={t('common.skipToContent')} />
      {isDesktop ? (
        <Box sx={{ width: SIDEBAR_WIDTH, flex: '0 0 auto' }}>
          <Box
            sx={{
              width: SIDEBAR_WIDTH,
              boxSizing: 'border-box',
              position: 'fixed',
              top: 0,
              left: 0,
              height: '100%',
              display: 'flex',
              flexDirection: 'column',
              overflowY: 'auto',
              zIndex: 'drawer',
              bgcolor: 'background.paper',
              color: 'text.primary',
              borderRight: 1,
              borderColor: 'grey.200',
              outline: 0,
            }}
          >
            <SideMenu />
          </Box>
        </Box>
      ) : (
        <Suspense fallback={null}>
          <LazyMobileNavigation />
        </Suspense>
      )}
      <Box
        component="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        sx={{ flex: 1, minWidth: 0, px: { xs: 2, sm: 3, md: 5 }, py: { xs: 3, md: 5 } }}
      >
        {/* Room for the fixed top bar (the height of its Toolbar). */}
        {!isDesktop && <Box sx={theme.mixins.toolbar} />}
        <Box sx={{ maxWidth: 1080, mx: 'auto' }}>
          {twoFactorRequired && current ? (
            <Suspense fallback={null}>
              <TwoFactorRequiredPage organization={current} />
            </Suspense>
          ) : (
            <Outlet />
          )}
        </Box>
      </Box>
    </Box>
  );
}
