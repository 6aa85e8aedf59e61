import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { QRCodeSVG } from 'qrcode.react';
import type { ReactNode } from 'react';

/**
 * The QR block of the holder pages (claim a credential, complete a verification): the link as a QR code to
 * scan with a wallet, how to use it, the button opening it in the platform's wallet (disabled when there is
 * none) and, below, another way in (`children`).
 */
export function WalletQrPanel({
  value,
  qrTitle,
  qrTestId,
  caption,
  walletLink,
  walletLabel,
  walletTestId,
  children,
}: {
  /** The link the QR code holds (`openid-credential-offer://…`, `openid4vp://…`). */
  value: string;
  qrTitle: string;
  qrTestId: string;
  caption: string;
  walletLink: string | null;
  walletLabel: string;
  walletTestId: string;
  children?: ReactNode;
}) {
  return (
    <>
      <Box
        data-testid={qrTestId}
        sx={{ display: 'flex', justifyContent: 'center', p: 2, bgcolor: '#fff', borderRadius: 2, mb: 1 }}
      >
        <QRCodeSVG value={value} size={220} marginSize={2} title={qrTitle} />
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary', textAlign: 'center', mb: 3 }}>
        {caption}
      </Typography>
      <Box sx={{ display: 'grid', gap: 1.5 }}>
        <Button
          variant="contained"
          size="large"
          href={walletLink ?? undefined}
          disabled={!walletLink}
          rel="noreferrer"
          data-testid={walletTestId}
        >
          {walletLabel}
        </Button>
        {children}
      </Box>
    </>
  );
}
