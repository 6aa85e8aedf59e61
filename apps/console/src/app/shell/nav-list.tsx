import ButtonBase, { type ButtonBaseProps } from '@mui/material/ButtonBase';
import { type SxProps, styled, type Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ElementType, ReactNode } from 'react';

/**
 * The side menu's list, as MUI's List, ListItem (`disablePadding`), ListItemButton, ListItemIcon and ListItemText lay
 * it out, with the styles of what the menu uses of them only (no dense, inset, divider, secondary action, secondary
 * text or flex-start alignment): the five modules were ≈ 2.8 KB gzip of every signed-in first page (issue 16). Same
 * markup, class names (the menu's styles select `.MuiListItemIcon-root`) and theme overrides (`MuiListItemButton`).
 */
export function NavList({ sx, children }: { sx?: SxProps<Theme>; children: ReactNode }) {
  return (
    <ListRoot className="MuiList-root MuiList-padding" sx={sx}>
      {children}
    </ListRoot>
  );
}

const ListRoot = styled('ul', { name: 'MuiList', slot: 'Root' })({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  position: 'relative',
});

const ItemRoot = styled('li', { name: 'MuiListItem', slot: 'Root' })({
  display: 'flex',
  justifyContent: 'flex-start',
  alignItems: 'center',
  position: 'relative',
  textDecoration: 'none',
  width: '100%',
  boxSizing: 'border-box',
  textAlign: 'left',
});

const ItemButton = styled(ButtonBase, { name: 'MuiListItemButton', slot: 'Root' })(({ theme }) => ({
  display: 'flex',
  flexGrow: 1,
  justifyContent: 'flex-start',
  alignItems: 'center',
  position: 'relative',
  textDecoration: 'none',
  minWidth: 0,
  boxSizing: 'border-box',
  textAlign: 'left',
  paddingTop: 8,
  paddingBottom: 8,
  transition: theme.transitions.create('background-color', { duration: theme.transitions.duration.shortest }),
  '&:hover': {
    textDecoration: 'none',
    backgroundColor: theme.palette.action.hover,
    '@media (hover: none)': { backgroundColor: 'transparent' },
  },
  '&.Mui-selected': {
    backgroundColor: theme.alpha(theme.palette.primary.main, theme.palette.action.selectedOpacity),
    '&.Mui-focusVisible': {
      backgroundColor: theme.alpha(
        theme.palette.primary.main,
        `${theme.palette.action.selectedOpacity} + ${theme.palette.action.focusOpacity}`,
      ),
    },
  },
  '&.Mui-selected:hover': {
    backgroundColor: theme.alpha(
      theme.palette.primary.main,
      `${theme.palette.action.selectedOpacity} + ${theme.palette.action.hoverOpacity}`,
    ),
    '@media (hover: none)': {
      backgroundColor: theme.alpha(theme.palette.primary.main, theme.palette.action.selectedOpacity),
    },
  },
  '&.Mui-focusVisible': { backgroundColor: theme.palette.action.focus },
  '&.Mui-disabled': { opacity: theme.palette.action.disabledOpacity },
  paddingLeft: 16,
  paddingRight: 16,
})) as typeof ButtonBase; // styled() drops ButtonBase's `component` from the props' type, not from what it renders.

const ItemIcon = styled('div', { name: 'MuiListItemIcon', slot: 'Root' })(({ theme }) => ({
  minWidth: theme.spacing(4.5),
  color: theme.palette.action.active,
  flexShrink: 0,
  display: 'inline-flex',
}));

const ItemText = styled('div', { name: 'MuiListItemText', slot: 'Root' })({
  flex: '1 1 auto',
  minWidth: 0,
  marginTop: 4,
  marginBottom: 4,
  '.MuiTypography-root:where(& .MuiListItemText-primary)': { display: 'block' },
});

export type NavListItemProps = Omit<ButtonBaseProps, 'children'> & {
  /** What the item's button renders as: a link (`RouterLink`, with `to`) or, by default, a `div` with role `button`. */
  component?: ElementType;
  to?: string;
  icon: ReactNode;
  label: string;
  selected?: boolean;
  noWrap?: boolean;
  'data-testid'?: string;
};

/** A list item holding one button (or link): its icon, then its label in the `subtitle2` type. */
export function NavListItem({
  component = 'div',
  icon,
  label,
  selected = false,
  noWrap = false,
  disabled,
  className,
  ...other
}: NavListItemProps) {
  return (
    <ItemRoot className="MuiListItem-root MuiListItem-gutters">
      <ItemButton
        component={component}
        disabled={disabled}
        className={`MuiListItemButton-root MuiListItemButton-gutters${selected ? ' Mui-selected' : ''}${
          className ? ` ${className}` : ''
        }`}
        {...other}
      >
        <ItemIcon className="MuiListItemIcon-root">{icon}</ItemIcon>
        <ItemText className="MuiListItemText-root">
          <Typography variant="subtitle2" noWrap={noWrap} className="MuiListItemText-primary">
            {label}
          </Typography>
        </ItemText>
      </ItemButton>
    </ItemRoot>
  );
}
