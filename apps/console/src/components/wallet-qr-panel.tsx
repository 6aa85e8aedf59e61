import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { QRCodeSVG } from 'qrcode.react';
import type { ReactNode } from 'react';

/**
 * A phone or tablet: a touch screen without hover (the CSS Media Queries 4 `pointer`/`hover` features), or a
 * browser that says it is mobile. Desktops with a touch screen keep a fine pointer and count as desktops.
 */
export function isHandheldDevice(): boolean {
  if (typeof window === 'undefined') return false;
  const mobileHint = (navigator as Navigator & { userAgentData?: { mobile?: boolean } }).userAgentData?.mobile;
  if (mobileHint === true) return true;
  if (/Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent)) return true;
  return typeof window.matchMedia === 'function' && window.matchMedia('(hover: none) and (pointer: coarse)').matches;
}

/**
 * How "Open in wallet" opens the platform's web wallet (an https page, `/receive?offer=…`, `/present?request=…`):
 * - on a desktop, in a new tab (`target="_blank"`, `rel="noopener"`: the wallet gets no handle on this page). The
 *   holder page stays open and keeps polling, so it moves to "received" / "verified" by itself once the wallet
 *   is done; in the same tab the wallet would replace it and that moment would never show.
 * - on a phone, in the same tab. The wallet takes the whole screen either way, and a new tab only hides the holder
 *   page among tabs (mobile browsers also throttle background tabs' timers, so it would not follow along); back
 *   from the wallet, the page loads again and asks the API where things stand, so it shows the outcome at once.
 * The `openid-credential-offer://` and `openid4vp://` links (another wallet on this device) stay in the same tab
 * everywhere: a custom scheme is handed to the app that registered it and the page itself stays and keeps
 * polling, whereas `target="_blank"` would leave an empty tab behind (or be blocked as a pop-up).
 */
export function walletLinkTarget(): { target?: '_blank'; rel: string } {
  return isHandheldDevice() ? { rel: 'noreferrer' } : { target: '_blank', rel: 'noopener noreferrer' };
}

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
  walletButtonSx,
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
  /** The button's colours (the organization's brand); the product's primary colour when absent. */
  walletButtonSx?: SxProps<Theme>;
  children?: ReactNode;
}) {
  const linkTarget = walletLinkTarget();
  return (
    <>
      <Box
        data-testid={qrTestId}
        sx={{
          display: 'flex',
          justifyContent: 'center',
          p: 2,
          bgcolor: '#fff',
          borderRadius: 2,
          border: 1,
          borderColor: 'grey.200',
          width: 'fit-content',
          mx: 'auto',
          mb: 1.5,
        }}
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
          {...linkTarget}
          data-testid={walletTestId}
          sx={walletLink ? walletButtonSx : undefined}
        >
          {walletLabel}
        </Button>
        {children}
      </Box>
    </>
  );
}
