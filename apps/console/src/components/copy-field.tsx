import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useCopyToClipboard } from '../lib/use-copy-to-clipboard.ts';

/** A labelled value in a monospace box with a copy button (key ids, secrets, the base URL, commands). */
export function CopyField({
  label,
  value,
  copyLabel,
  copiedTitle,
  valueTestId,
  copyTestId,
  multiline = false,
}: {
  label: string;
  value: string;
  copyLabel: string;
  copiedTitle?: string;
  valueTestId?: string;
  copyTestId?: string;
  multiline?: boolean;
}) {
  const copy = useCopyToClipboard();
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="subtitle1" component="p" sx={{ mb: 0.75, color: 'text.primary' }}>
        {label}
      </Typography>
      <Box
        sx={{
          display: 'flex',
          alignItems: multiline ? 'flex-start' : 'center',
          gap: 1,
          pl: 1.5,
          pr: 0.5,
          py: 0.5,
          border: 1,
          borderColor: 'grey.300',
          borderRadius: 1,
          bgcolor: 'grey.50',
        }}
      >
        <Box
          component="code"
          data-testid={valueTestId}
          sx={{
            flex: 1,
            minWidth: 0,
            py: 0.75,
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
            fontSize: 13,
            lineHeight: '20px',
            color: 'text.primary',
            wordBreak: 'break-all',
            whiteSpace: multiline ? 'pre-wrap' : 'normal',
          }}
        >
          {value}
        </Box>
        <Tooltip title={copyLabel}>
          <IconButton
            size="small"
            aria-label={copyLabel}
            data-testid={copyTestId}
            onClick={() => void copy(value, copiedTitle)}
          >
            <ContentCopyOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
    </Box>
  );
}
