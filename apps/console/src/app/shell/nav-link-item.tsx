import type { SvgIconComponent } from '@mui/icons-material';
import { RouterLink } from '../../components/router-link.tsx';
import { NavListItem } from './nav-list.tsx';

export const navItemSx = {
  px: 1.5,
  py: 1,
  mb: 0.25,
  color: 'grey.700',
  '& .MuiListItemIcon-root': { minWidth: 36, color: 'grey.500' },
  '&:hover': { bgcolor: 'grey.50' },
  '&.Mui-selected, &.Mui-selected:hover': {
    bgcolor: 'primary.50',
    color: 'primary.700',
    '& .MuiListItemIcon-root': { color: 'primary.main' },
  },
} as const;

export function NavLinkItem({
  to,
  label,
  icon: Icon,
  selected,
  testId,
  onClick,
}: {
  to: string;
  label: string;
  icon: SvgIconComponent;
  selected: boolean;
  testId: string;
  onClick?: () => void;
}) {
  // A list item around the link: a list holds list items only (WAI-ARIA 1.2, `list`).
  return (
    <NavListItem
      component={RouterLink}
      to={to}
      selected={selected}
      aria-current={selected ? 'page' : undefined}
      data-testid={testId}
      onClick={onClick}
      sx={navItemSx}
      icon={<Icon fontSize="small" />}
      label={label}
      noWrap
    />
  );
}
