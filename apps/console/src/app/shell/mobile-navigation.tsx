import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { useTranslation } from '../../i18n/index.ts';
import { SideMenu } from './side-menu.tsx';

/**
 * Below `md`: the top bar (the `<header>`) with a button that slides the side menu out. Its own chunk, which only
 * narrow windows load (app-shell.tsx), so a desktop's first page does not carry the top bar and the modal drawer.
 */
export function MobileNavigation() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: closing on every navigation is the point.
  useEffect(() => setOpen(false), [pathname]);

  return (
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
            aria-expanded={open ? 'true' : 'false'}
            data-testid="mobile-menu-button"
            onClick={() => setOpen(true)}
          >
            <MenuIcon />
          </IconButton>
        </Toolbar>
      </AppBar>
      <Drawer
        variant="temporary"
        open={open}
        onClose={() => setOpen(false)}
        // The open drawer is a modal dialog: it needs a name (WAI-ARIA 1.2 `dialog`).
        slotProps={{ paper: { 'aria-label': t('nav.mainNavigation') } }}
        sx={{ '& .MuiDrawer-paper': { width: 'min(320px, 88vw)', boxSizing: 'border-box' } }}
      >
        <SideMenu onNavigate={() => setOpen(false)} onClose={() => setOpen(false)} />
      </Drawer>
    </>
  );
}
