import Box from '@mui/material/Box';
import Radio from '@mui/material/Radio';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/**
 * One option of a radio group shown as a card (an icon, a title, a sentence): the whole card is the label, so
 * a click anywhere selects it; the radio inside carries the accessible name.
 */
export function ChoiceCard({
  name,
  value,
  selected,
  onSelect,
  icon,
  title,
  helper,
  badge,
  tone = 'primary',
  testId,
}: {
  name: string;
  value: string;
  selected: boolean;
  onSelect: () => void;
  icon: ReactNode;
  title: string;
  helper: string;
  /** A short mark after the title ("Recommended"). */
  badge?: string;
  /** `warning` for a choice that needs care (its icon and border when selected). */
  tone?: 'primary' | 'warning';
  testId: string;
}) {
  return (
    <Box
      component="label"
      data-testid={testId}
      data-selected={selected}
      sx={{
        display: 'flex',
        gap: 1.5,
        alignItems: 'flex-start',
        p: 2,
        borderRadius: 2,
        cursor: 'pointer',
        border: '1px solid',
        borderColor: selected ? `${tone}.main` : 'divider',
        bgcolor: selected ? (tone === 'primary' ? 'primary.25' : 'warning.25') : 'background.paper',
        boxShadow: selected ? (theme) => `0 0 0 1px ${theme.palette[tone].main}` : 'none',
        transition: 'border-color 120ms, background-color 120ms',
        '&:hover': { borderColor: selected ? `${tone}.main` : 'grey.400' },
      }}
    >
      <Box
        sx={{
          width: 36,
          height: 36,
          flexShrink: 0,
          borderRadius: '50%',
          display: 'grid',
          placeItems: 'center',
          bgcolor: selected ? `${tone}.100` : 'grey.100',
          color: selected ? `${tone}.700` : 'text.secondary',
        }}
      >
        {icon}
      </Box>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="subtitle2" component="span" sx={{ display: 'block' }}>
          {title}
          {badge && (
            <Box
              component="span"
              sx={{
                ml: 1,
                px: 0.75,
                py: '1px',
                borderRadius: 1,
                fontSize: 12,
                fontWeight: 500,
                verticalAlign: 'middle',
                bgcolor: 'grey.100',
                color: 'text.secondary',
              }}
            >
              {badge}
            </Box>
          )}
        </Typography>
        <Typography variant="body2" component="span" sx={{ display: 'block', color: 'text.secondary', mt: 0.25 }}>
          {helper}
        </Typography>
      </Box>
      <Radio
        checked={selected}
        onChange={onSelect}
        value={value}
        name={name}
        size="small"
        color={tone}
        sx={{ m: -1 }}
        slotProps={{ input: { 'aria-label': title } }}
      />
    </Box>
  );
}
