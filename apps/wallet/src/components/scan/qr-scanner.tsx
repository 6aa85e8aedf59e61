import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

type CameraState = 'starting' | 'scanning' | 'no-camera' | 'denied' | 'unsupported' | 'error';

const FAILURE_KEY: Record<Exclude<CameraState, 'starting' | 'scanning'>, string> = {
  'no-camera': 'scan.noCamera',
  denied: 'scan.denied',
  unsupported: 'scan.unsupported',
  error: 'scan.cameraError',
};

function failureOf(error: unknown): CameraState {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError')
    return 'no-camera';
  return 'error';
}

/** Reads QR codes from the camera: getUserMedia frames drawn to a canvas and decoded with jsQR. */
export function QrScanner({ onResult }: { onResult: (text: string) => void }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<CameraState>('starting');
  const [attempt, setAttempt] = useState(0);
  const onResultRef = useRef(onResult);
  onResultRef.current = onResult;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` restarts the camera on demand
  useEffect(() => {
    if (!navigator.mediaDevices?.getUserMedia) {
      setState('unsupported');
      return;
    }
    let stream: MediaStream | null = null;
    let frame = 0;
    let stopped = false;
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });

    const stop = () => {
      stopped = true;
      cancelAnimationFrame(frame);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };

    (async () => {
      setState('starting');
      try {
        const [{ default: jsQR }, media] = await Promise.all([
          import('jsqr'),
          navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false }),
        ]);
        stream = media;
        if (stopped || !video.current || !context) return stop();
        video.current.srcObject = media;
        await video.current.play();
        setState('scanning');
        const tick = () => {
          if (stopped) return;
          const element = video.current;
          if (element && element.readyState >= element.HAVE_CURRENT_DATA && element.videoWidth > 0) {
            // Down-scaled frames decode fast enough on phones and still read dense codes.
            const scale = Math.min(1, 720 / Math.max(element.videoWidth, element.videoHeight));
            canvas.width = Math.round(element.videoWidth * scale);
            canvas.height = Math.round(element.videoHeight * scale);
            context.drawImage(element, 0, 0, canvas.width, canvas.height);
            const image = context.getImageData(0, 0, canvas.width, canvas.height);
            const code = jsQR(image.data, image.width, image.height, { inversionAttempts: 'attemptBoth' });
            if (code?.data) {
              stop();
              onResultRef.current(code.data);
              return;
            }
          }
          frame = requestAnimationFrame(tick);
        };
        frame = requestAnimationFrame(tick);
      } catch (error) {
        stop();
        setState(failureOf(error));
      }
    })();
    return stop;
  }, [attempt]);

  if (state !== 'starting' && state !== 'scanning') {
    return (
      <Alert
        severity="info"
        data-testid="scanner-unavailable"
        action={
          state === 'unsupported' ? undefined : (
            <Button color="inherit" size="small" onClick={() => setAttempt((n) => n + 1)}>
              {t('scan.retryCamera')}
            </Button>
          )
        }
      >
        {t(FAILURE_KEY[state])}
      </Alert>
    );
  }

  return (
    <Box>
      <Box
        sx={{
          position: 'relative',
          width: '100%',
          aspectRatio: '1 / 1',
          maxHeight: 420,
          bgcolor: 'grey.900',
          borderRadius: 3,
          overflow: 'hidden',
        }}
      >
        <Box
          component="video"
          ref={video}
          muted
          playsInline
          sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
        />
        <Box
          aria-hidden
          sx={{
            position: 'absolute',
            inset: '18%',
            border: '3px solid rgba(255,255,255,0.85)',
            borderRadius: 3,
          }}
        />
        {state === 'starting' && (
          <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', color: 'common.white' }}>
            <Box sx={{ textAlign: 'center' }}>
              <CircularProgress color="inherit" aria-label={t('scan.starting')} />
              <Typography sx={{ mt: 1 }}>{t('scan.starting')}</Typography>
            </Box>
          </Box>
        )}
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1, textAlign: 'center' }}>
        {t('scan.pointCamera')}
      </Typography>
    </Box>
  );
}
