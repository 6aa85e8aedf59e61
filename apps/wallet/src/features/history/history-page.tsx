import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Chip, { type ChipProps } from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type PresentationRecord, pickDisplay, type StoredCredential } from '../../app/core-api.ts';
import { useVault } from '../../app/vault-context.tsx';
import { claimLabel, formatDate } from '../../components/format.ts';
import { PageTitle } from '../../components/section.tsx';
import { currentLanguage } from '../../i18n/index.ts';

const OUTCOME_COLOR: Record<PresentationRecord['outcome'], ChipProps['color']> = {
  SENT: 'success',
  DECLINED: 'default',
  ERROR: 'error',
};

/** Every presentation request answered: who asked, when, from which credential, what was shared. */
export function HistoryPage() {
  const { t } = useTranslation();
  const vault = useVault();
  const locale = currentLanguage();
  const [records, setRecords] = useState<PresentationRecord[] | null>(null);
  const [credentials, setCredentials] = useState<Map<string, StoredCredential>>(new Map());

  useEffect(() => {
    let active = true;
    Promise.all([vault.listPresentations(), vault.listCredentials()])
      .then(([list, held]) => {
        if (!active) return;
        setRecords([...list].sort((a, b) => b.at.localeCompare(a.at)));
        setCredentials(new Map(held.map((credential) => [credential.id, credential])));
      })
      .catch((error: unknown) => {
        console.error(error);
        if (active) setRecords([]);
      });
    return () => {
      active = false;
    };
  }, [vault]);

  return (
    <Box>
      <PageTitle>{t('history.title')}</PageTitle>
      {records === null ? (
        <LinearProgress aria-label={t('app.loading')} />
      ) : records.length === 0 ? (
        <Card variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <HistoryOutlined sx={{ fontSize: 48, color: 'primary.main' }} />
          <Typography variant="h6" component="p" sx={{ mt: 1 }}>
            {t('history.empty')}
          </Typography>
          <Typography sx={{ color: 'text.secondary', mt: 1 }}>{t('history.emptyHint')}</Typography>
        </Card>
      ) : (
        <Stack spacing={1.5}>
          {records.map((record) => {
            const held = credentials.get(record.credentialId);
            const labels = record.sharedClaims.map((name) =>
              held ? claimLabel(held.claimDisplay, name, locale) : name,
            );
            return (
              <Card
                key={record.id}
                variant="outlined"
                sx={{ p: 2 }}
                data-testid="history-item"
                data-outcome={record.outcome}
              >
                <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
                  <Avatar
                    src={record.verifier.logoUri}
                    alt=""
                    variant="rounded"
                    sx={{ bgcolor: 'primary.50', color: 'primary.main' }}
                  >
                    {record.verifier.name.slice(0, 1).toUpperCase()}
                  </Avatar>
                  <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'flex-start' }}>
                      <Typography sx={{ fontWeight: 600 }}>{record.verifier.name}</Typography>
                      <Chip
                        size="small"
                        label={t(`history.outcome.${record.refusal ? 'REFUSED' : record.outcome}`)}
                        color={OUTCOME_COLOR[record.outcome]}
                      />
                    </Box>
                    <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                      {formatDate(record.at, locale, true)}
                    </Typography>
                    <Typography variant="body2" sx={{ mt: 1 }}>
                      {t('history.credential')}: {pickDisplay(record.credentialName, locale) || '—'}
                    </Typography>
                    {record.outcome === 'ERROR' && record.refusal && (
                      <Typography
                        variant="body2"
                        sx={{ mt: 0.5, color: 'error.main', wordBreak: 'break-word' }}
                        data-testid="history-refusal"
                      >
                        {t('present.outcome.refusedBody', {
                          reason: record.refusal.description ?? record.refusal.error,
                        })}
                      </Typography>
                    )}
                    {labels.length > 0 && (
                      <Box
                        sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 1 }}
                        aria-label={t('history.sharedClaims')}
                      >
                        {labels.map((label) => (
                          <Chip key={label} label={label} size="small" variant="outlined" />
                        ))}
                      </Box>
                    )}
                  </Box>
                </Box>
              </Card>
            );
          })}
        </Stack>
      )}
    </Box>
  );
}
