import { AccountDisplay } from '@cp/ui';
import Close from '@mui/icons-material/Close';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { useLocation } from 'react-router';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { LightDivider } from '../../components/light-divider.tsx';
import { useLogout } from '../../features/auth/api/logout.ts';
import { useUserProfile } from '../../features/users/api/get-user-profile.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useIdentity } from '../../lib/identity-context.ts';
import { isOrganizationAdmin } from '../../lib/organization-role.ts';
import { NAV_ITEMS } from './nav-items.ts';
import { NavLinkItem, navItemSx } from './nav-link-item.tsx';
import { NavList, NavListItem } from './nav-list.tsx';
import { OrgSwitcher } from './org-switcher.tsx';

export function SideMenu({ onNavigate, onClose }: { onNavigate?: () => void; onClose?: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { current } = useIdentity();
  const logout = useLogout();
  const profile = useUserProfile();
  const user = profile.data;
  const userName = [user?.first_name, user?.last_name].filter(Boolean).join(' ') || user?.username || '';

  return (
    // The whole menu is the navigation landmark: the switcher, the pages, settings and the signed-in person.
    <Box
      component="nav"
      aria-label={t('nav.mainNavigation')}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', px: 2, pt: 2.5, pb: 2 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: 1, mb: 3 }}>
        <BrandLogo />
        {onClose && (
          <IconButton aria-label={t('nav.closeMenu')} onClick={onClose} edge="end" data-testid="mobile-menu-close">
            <Close />
          </IconButton>
        )}
      </Box>
      <OrgSwitcher onDone={onNavigate} />
      <NavList sx={{ mt: 2.5, p: 0 }}>
        {NAV_ITEMS.filter((item) => {
          // Without an organization (a platform administrator) only the administration items apply.
          if (item.platformAdminOnly) return user?.is_platform_admin;
          return item.organizationAdminOnly ? isOrganizationAdmin(current) : Boolean(current);
        }).map((item) => (
          <NavLinkItem
            key={item.key}
            to={item.to(current?.id)}
            label={t(item.labelKey)}
            icon={item.icon}
            selected={item.matches(pathname)}
            testId={`nav-${item.key}`}
            onClick={onNavigate}
          />
        ))}
      </NavList>
      <Box sx={{ flex: 1, minHeight: 24 }} />
      <NavList sx={{ p: 0 }}>
        <NavLinkItem
          to="/settings"
          label={t('nav.settings')}
          icon={SettingsOutlined}
          selected={pathname.startsWith('/settings')}
          testId="nav-settings"
          onClick={onNavigate}
        />
        <NavListItem
          data-testid="logout"
          disabled={logout.isPending}
          onClick={async () => {
            // Leaves for the provider's sign-out (or /intro) once the session has ended.
            await logout.mutateAsync();
            onNavigate?.();
          }}
          sx={navItemSx}
          icon={<LogoutOutlined fontSize="small" />}
          label={t('nav.logout')}
        />
      </NavList>
      {user && (
        <>
          <LightDivider sx={{ my: 2 }} />
          <Box sx={{ px: 1 }} data-testid="current-user">
            <AccountDisplay
              type="users"
              variant="card"
              name={userName}
              username={user.email}
              img={user.avatar?.url}
              verifiedLabel={t('common.verified')}
            />
          </Box>
        </>
      )}
    </Box>
  );
}
