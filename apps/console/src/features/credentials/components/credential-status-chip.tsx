import type { CredentialStatus } from '@cp/contracts';
import Box from '@mui/material/Box';
import { useTranslation } from '../../../i18n/index.ts';

type ChipColor = 'default' | 'info' | 'success' | 'error' | 'warning';

/** Each status its colour: created grey, issued blue, claimed green, revoked red, expired amber. */
export const statusColor: Record<CredentialStatus, ChipColor> = {
  CREATED: 'default',
  ISSUED: 'info',
  CLAIMED: 'success',
  REVOKED: 'error',
  EXPIRED: 'warning',
};

/**
 * A status as MUI's small Chip shows it (filled in the status's colour; outlined grey for a created credential), with
 * the Chip's styles for these two cases only: MUI's Chip (every size, variant, colour, avatar, icon, delete button and
 * click behaviour) was one of the heaviest modules of the credential list's first page (issue 16). Same markup and
 * class names.
 */
export function CredentialStatusChip({ id, status }: { id: string; status: CredentialStatus }) {
  const { t } = useTranslation();
  const color = statusColor[status];
  const outlined = color === 'default';
  return (
    <Box
      className={`MuiChip-root MuiChip-${outlined ? 'outlined' : 'filled'} MuiChip-sizeSmall MuiChip-color${
        color[0]?.toUpperCase() + color.slice(1)
      }`}
      data-testid={`credential-status-${id}`}
      data-status={status}
      sx={(theme) => ({
        maxWidth: '100%',
        fontFamily: theme.typography.fontFamily,
        fontSize: theme.typography.pxToRem(13),
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        height: 24,
        lineHeight: 1.5,
        borderRadius: '16px',
        whiteSpace: 'nowrap',
        transition: theme.transitions.create(['background-color', 'box-shadow']),
        cursor: 'unset',
        outline: 0,
        textDecoration: 'none',
        padding: 0,
        verticalAlign: 'middle',
        boxSizing: 'border-box',
        ...(outlined
          ? {
              color: theme.palette.text.primary,
              backgroundColor: 'transparent',
              border: `1px solid ${theme.palette.grey[400]}`,
            }
          : { color: theme.palette[color].contrastText, backgroundColor: theme.palette[color].main, border: 0 }),
      })}
    >
      <Box
        component="span"
        className="MuiChip-label MuiChip-labelSmall"
        sx={{ overflow: 'hidden', textOverflow: 'ellipsis', px: outlined ? '7px' : '8px', whiteSpace: 'nowrap' }}
      >
        {t(`issuing.status.${status}`)}
      </Box>
    </Box>
  );
}
