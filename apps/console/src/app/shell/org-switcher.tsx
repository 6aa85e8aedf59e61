import { AccountDisplay, visuallyHidden } from '@cp/ui';
import UnfoldMore from '@mui/icons-material/UnfoldMore';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../i18n/index.ts';
import { useIdentity } from '../../lib/identity-context.ts';
import { lazyComponent, whenIdle } from '../../lib/lazy-component.ts';
import { usePublicConfig, withReturnTo } from '../../lib/public-config.ts';

// The menu (popover, modal, focus trap, menu list) is not shown at first paint: its code is fetched once the browser is
// idle, or on the first open should that come first (issue 16).
const OrgSwitcherMenu = lazyComponent(() => import('./org-switcher-menu.tsx').then((m) => m.OrgSwitcherMenu));

// The form (react-hook-form, zod schemas) is downloaded the first time it opens, not with the shell.
const CreateOrganizationDialog = lazy(async () => ({
  default: (await import('../../features/organizations/components/create-organization-dialog.tsx'))
    .CreateOrganizationDialog,
}));

/** The current organization; its menu switches organization or starts creating one (spec §2). */
export function OrgSwitcher({ onDone }: { onDone?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { current, organizations, selectOrganization, refresh } = useIdentity();
  const config = usePublicConfig();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Mounted from the first open on, so that closing still plays the menu's transition.
  const [menuMounted, setMenuMounted] = useState(false);
  if (anchor !== null && !menuMounted) setMenuMounted(true);
  useEffect(() => whenIdle(() => void OrgSwitcherMenu.preload()), []);
  const [creating, setCreating] = useState(false);
  // Stays mounted once opened, so the dialog can play its closing transition.
  const [dialogLoaded, setDialogLoaded] = useState(false);

  const choose = async (id: string) => {
    setAnchor(null);
    await selectOrganization(id);
    onDone?.();
    navigate('/');
  };

  const create = () => {
    setAnchor(null);
    const url = config.data?.organization_create_url;
    if (url) window.location.assign(withReturnTo(url));
    else {
      setDialogLoaded(true);
      setCreating(true);
    }
  };

  return (
    <>
      <ButtonBase
        data-testid="org-switcher"
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : 'false'}
        onClick={(event) => {
          setAnchor(event.currentTarget);
          // The list as it is now: an organization created or joined elsewhere (the account center, another tab)
          // since the console last asked shows in the menu that opens.
          void refresh();
        }}
        sx={{
          width: '100%',
          justifyContent: 'space-between',
          textAlign: 'left',
          gap: 1,
          p: 1.25,
          border: 1,
          borderColor: 'grey.200',
          borderRadius: 2.5,
          bgcolor: 'background.paper',
          boxShadow: '0 1px 2px rgba(16, 24, 40, 0.05)',
          '&:hover': { bgcolor: 'grey.50' },
          '&.Mui-focusVisible': { outline: '2px solid', outlineColor: 'primary.300' },
        }}
      >
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <AccountDisplay
            type="organizations"
            variant="card"
            name={current?.name ?? t('nav.noOrganization')}
            img={current?.logo?.url}
            isVerified={current?.verified}
            username={current ? t(`organization.status.${current.verification_status}`) : t('nav.createOrganization')}
            verifiedLabel={t('common.verified')}
          />
        </Box>
        {/* The name is what the button shows (WCAG 2.2 SC 2.5.3 Label in Name), then what it does. */}
        <Box component="span" sx={visuallyHidden}>
          {t('nav.switchOrganization')}
        </Box>
        <UnfoldMore fontSize="small" sx={{ color: 'grey.500' }} />
      </ButtonBase>
      {menuMounted && (
        <Suspense fallback={null}>
          <OrgSwitcherMenu
            anchor={anchor}
            onClose={() => setAnchor(null)}
            organizations={organizations}
            currentId={current?.id}
            onChoose={(id) => void choose(id)}
            onCreate={create}
          />
        </Suspense>
      )}
      {dialogLoaded && (
        <Suspense fallback={null}>
          <CreateOrganizationDialog
            open={creating}
            onClose={() => setCreating(false)}
            onCreated={() => {
              setCreating(false);
              onDone?.();
              navigate('/');
            }}
          />
        </Suspense>
      )}
    </>
  );
}
