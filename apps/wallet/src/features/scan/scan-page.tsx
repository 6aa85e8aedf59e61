import { ScanPanel } from '../../components/scan/scan-panel.tsx';

export function ScanPage() {
  return <ScanPanel />;
}
