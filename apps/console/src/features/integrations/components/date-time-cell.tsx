import Box from '@mui/material/Box';
import { useFormatDateAndTime, useFormatDateTime } from '../hooks/use-format-date-time.ts';

/** A date over its time, each on one line (the whole in the title): narrow, so the name columns keep the room. */
export function DateTimeCell({ iso }: { iso: string }) {
  const formatDateAndTime = useFormatDateAndTime();
  const formatDateTime = useFormatDateTime();
  const { date, time } = formatDateAndTime(iso);
  return (
    <Box component="time" dateTime={iso} title={formatDateTime(iso)} sx={{ display: 'block', whiteSpace: 'nowrap' }}>
      {date}{' '}
      <Box component="span" sx={{ display: 'block' }}>
        {time}
      </Box>
    </Box>
  );
}
