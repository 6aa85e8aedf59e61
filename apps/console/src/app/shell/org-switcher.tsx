import { AccountDisplay, visuallyHidden } from '@cp/ui';
import AddOutlined from '@mui/icons-material/AddOutlined';
import CheckOutlined from '@mui/icons-material/CheckOutlined';
import UnfoldMore from '@mui/icons-material/UnfoldMore';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import MenuList from '@mui/material/MenuList';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../i18n/index.ts';
import { useIdentity } from '../../lib/identity-context.ts';
import { usePublicConfig, withReturnTo } from '../../lib/public-config.ts';

// The form (react-hook-form, zod schemas) is downloaded the first time it opens, not with the shell.
const CreateOrganizationDialog = lazy(async () => ({
  default: (await import('../../features/organizations/components/create-organization-dialog.tsx'))
    .CreateOrganizationDialog,
}));

/** The current organization; its menu switches organization or starts creating one (spec §2). */
export function OrgSwitcher({ onDone }: { onDone?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { current, organizations, selectOrganization } = useIdentity();
  const config = usePublicConfig();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
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
        onClick={(event) => setAnchor(event.currentTarget)}
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
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        transformOrigin={{ vertical: 'top', horizontal: 'left' }}
        slotProps={{ paper: { sx: { width: anchor?.clientWidth ?? 248, minWidth: 248, mt: 0.75, borderRadius: 2.5 } } }}
      >
        <Typography
          variant="caption"
          component="div"
          sx={{ px: 2, pt: 1.5, pb: 0.5, color: 'text.secondary', fontSize: 12 }}
        >
          {t('nav.organizations')}
        </Typography>
        <MenuList
          autoFocusItem
          aria-label={t('nav.organizations')}
          data-testid="org-list"
          sx={{ maxHeight: 320, overflowY: 'auto', py: 0.5 }}
        >
          {organizations.map((organization) => {
            const selected = organization.id === current?.id;
            return (
              <MenuItem
                key={organization.id}
                data-testid={`org-option-${organization.id}`}
                selected={selected}
                onClick={() => choose(organization.id)}
                sx={{ mx: 0.75, borderRadius: 1.5, py: 1, gap: 1 }}
              >
                <Box sx={{ minWidth: 0, flex: 1 }}>
                  <AccountDisplay
                    type="organizations"
                    variant="card"
                    avatarSize="32px"
                    name={organization.name}
                    img={organization.logo?.url}
                    isVerified={organization.verified}
                    verifiedLabel={t('common.verified')}
                  />
                </Box>
                {selected && <CheckOutlined fontSize="small" sx={{ color: 'primary.main' }} />}
              </MenuItem>
            );
          })}
        </MenuList>
        <Divider sx={{ my: '0 !important' }} />
        <MenuList sx={{ py: 0.5 }}>
          <MenuItem data-testid="create-organization" onClick={create} sx={{ mx: 0.75, borderRadius: 1.5 }}>
            <ListItemIcon>
              <AddOutlined fontSize="small" />
            </ListItemIcon>
            <ListItemText primary={t('nav.createOrganization')} slotProps={{ primary: { variant: 'subtitle2' } }} />
          </MenuItem>
        </MenuList>
      </Popover>
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
