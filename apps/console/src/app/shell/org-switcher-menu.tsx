import type { Organization } from '@cp/contracts';
import { AccountDisplay } from '@cp/ui';
import AddOutlined from '@mui/icons-material/AddOutlined';
import CheckOutlined from '@mui/icons-material/CheckOutlined';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import MenuList from '@mui/material/MenuList';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import { useTranslation } from '../../i18n/index.ts';

export interface OrgSwitcherMenuProps {
  /** The switcher's button while the menu is open, else null. */
  anchor: HTMLElement | null;
  onClose: () => void;
  organizations: Organization[];
  currentId: string | undefined;
  onChoose: (id: string) => void;
  onCreate: () => void;
}

/**
 * The organization switcher's menu (org-switcher.tsx): its own chunk, fetched when the browser is idle after the first
 * paint or on the first open, so the popover, its modal and focus trap and the menu list are not part of the first
 * page (issue 16).
 */
export function OrgSwitcherMenu({
  anchor,
  onClose,
  organizations,
  currentId,
  onChoose,
  onCreate,
}: OrgSwitcherMenuProps) {
  const { t } = useTranslation();
  return (
    <Popover
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
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
          const selected = organization.id === currentId;
          return (
            <MenuItem
              key={organization.id}
              data-testid={`org-option-${organization.id}`}
              selected={selected}
              onClick={() => onChoose(organization.id)}
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
        <MenuItem data-testid="create-organization" onClick={onCreate} sx={{ mx: 0.75, borderRadius: 1.5 }}>
          <ListItemIcon>
            <AddOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={t('nav.createOrganization')} slotProps={{ primary: { variant: 'subtitle2' } }} />
        </MenuItem>
      </MenuList>
    </Popover>
  );
}
