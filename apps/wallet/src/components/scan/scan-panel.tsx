import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PageTitle } from '../section.tsx';
import { classifyLink, targetPath } from './classify-link.ts';
import { QrScanner } from './qr-scanner.tsx';

/**
 * Scan a QR code or paste a link; an offer goes to /receive, a presentation request to /present.
 * The camera only starts on the scan tab; a pasted text stays when it is not recognised.
 */
export function ScanPanel({ initialTab = 'scan' }: { initialTab?: 'scan' | 'paste' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [tab, setTab] = useState(initialTab);
  const [link, setLink] = useState('');
  const [unrecognized, setUnrecognized] = useState(false);

  function open(text: string): boolean {
    const target = classifyLink(text);
    if (!target) return false;
    navigate(targetPath(target));
    return true;
  }

  function onScanned(text: string) {
    if (open(text)) return;
    setLink(text);
    setUnrecognized(true);
    setTab('paste');
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setUnrecognized(!open(link));
  }

  return (
    <Box>
      <PageTitle>{t('scan.title')}</PageTitle>
      <Typography sx={{ color: 'text.secondary', mb: 2 }}>{t('scan.subtitle')}</Typography>
      <Card variant="outlined">
        <Tabs value={tab} onChange={(_, value) => setTab(value)} variant="fullWidth">
          <Tab value="scan" label={t('scan.tabScan')} />
          <Tab value="paste" label={t('scan.tabPaste')} data-testid="scan-tab-paste" />
        </Tabs>
        <Box sx={{ p: 2 }}>
          {tab === 'scan' ? (
            <QrScanner onResult={onScanned} />
          ) : (
            <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
              <TextField
                label={t('scan.link')}
                helperText={t('scan.linkHelp')}
                value={link}
                onChange={(event) => {
                  setLink(event.target.value);
                  setUnrecognized(false);
                }}
                multiline
                minRows={3}
                fullWidth
                slotProps={{ htmlInput: { 'data-testid': 'scan-link', spellCheck: false, autoCapitalize: 'off' } }}
              />
              {unrecognized && <Alert severity="error">{t('scan.unrecognized')}</Alert>}
              <Button type="submit" variant="contained" disabled={!link.trim()} data-testid="scan-continue">
                {t('scan.continue')}
              </Button>
            </Stack>
          )}
        </Box>
      </Card>
      <Box sx={{ mt: 2, textAlign: 'center' }}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('fromIssuer.noLink')}
        </Typography>
        <Button component={Link} to="/receive/issuer" data-testid="scan-from-issuer">
          {t('fromIssuer.entry')}
        </Button>
      </Box>
    </Box>
  );
}
