import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';

/**
 * A horizontal full-width rule as MUI's Divider draws it (an `<hr>`, or a separator list item inside a list), without
 * the Divider's other orientations, insets and text: lighter on the credential list's first page (issue 16). Same
 * markup, roles and class names.
 */
export function LightDivider({
  component = 'hr',
  sx,
  ...other
}: {
  component?: 'hr' | 'li';
  sx?: SxProps<Theme>;
  'aria-hidden'?: boolean;
}) {
  return (
    <Box
      component={component}
      role={component === 'hr' ? undefined : 'separator'}
      aria-orientation={component === 'hr' ? undefined : 'horizontal'}
      className="MuiDivider-root MuiDivider-fullWidth"
      {...other}
      sx={[
        {
          margin: 0,
          flexShrink: 0,
          borderWidth: 0,
          borderStyle: 'solid',
          borderColor: 'divider',
          borderBottomWidth: 'thin',
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    />
  );
}
