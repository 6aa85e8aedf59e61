import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ClaimDisplay } from '../app/core-api.ts';
import { currentLanguage } from '../i18n/index.ts';
import { claimLabel, type FormattedValue, formatClaimValue } from './format.ts';

function Value({ value }: { value: FormattedValue }) {
  switch (value.kind) {
    case 'text':
      return <>{value.text}</>;
    case 'image':
      return <Box component="img" src={value.src} alt="" sx={{ maxWidth: 160, maxHeight: 160, borderRadius: 1 }} />;
    case 'list':
      return (
        <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
          {value.items.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: claim arrays have no identity beyond their position
            <li key={index}>
              <Value value={item} />
            </li>
          ))}
        </Box>
      );
    case 'object':
      return (
        <Box component="dl" sx={{ m: 0 }}>
          {value.entries.map((entry) => (
            <Box key={entry.key} sx={{ display: 'flex', gap: 1 }}>
              <Box component="dt" sx={{ color: 'text.secondary' }}>
                {entry.key}:
              </Box>
              <Box component="dd" sx={{ m: 0 }}>
                <Value value={entry.value} />
              </Box>
            </Box>
          ))}
        </Box>
      );
  }
}

/** Claims as label / value rows; `names` fixes which claims and in which order. */
export function ClaimList({
  names,
  claims,
  claimDisplay,
  testId = 'claim-row',
}: {
  names: readonly string[];
  claims: Record<string, unknown>;
  claimDisplay: readonly ClaimDisplay[];
  testId?: string;
}) {
  const { t } = useTranslation();
  const locale = currentLanguage();
  const words = { yes: t('claims.yes'), no: t('claims.no'), empty: t('claims.empty') };
  return (
    <Box component="dl" sx={{ m: 0 }}>
      {names.map((name, index) => (
        <Box
          key={name}
          data-testid={testId}
          data-claim={name}
          sx={{ py: 1.25, borderTop: index === 0 ? 0 : 1, borderColor: 'divider' }}
        >
          <Typography component="dt" variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
            {claimLabel(claimDisplay, name, locale)}
          </Typography>
          <Typography component="dd" variant="body1" sx={{ m: 0, wordBreak: 'break-word' }}>
            <Value value={formatClaimValue(claims[name], locale, words)} />
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
