import type { WalletProvider } from '@cp/contracts';
import {
  CertificateDeleteAction,
  CertificateExpiry,
  CertificateFingerprint,
  CertificateMobileItem,
  CertificateName,
  CertificateSubject,
} from '../../../components/certificate-list.tsx';
import { ResponsiveTable, type ResponsiveTableColumn } from '../../../components/responsive-table.tsx';
import { useTranslation } from '../../../i18n/index.ts';

const names = { ns: 'walletProviders', testId: 'wallet-provider' } as const;

/**
 * The organization's trusted wallet providers as a table from `md` up and as stacked items on phones: name and
 * kind (a CA, or the attestation signing certificate itself), subject, fingerprint (shortened, copyable), expiry.
 */
export function WalletProvidersTable({
  providers,
  onDelete,
  now = new Date(),
}: {
  providers: WalletProvider[];
  onDelete: (provider: WalletProvider) => void;
  now?: Date;
}) {
  const { t } = useTranslation();
  const name = (p: WalletProvider) => (
    <CertificateName {...names} row={p} kind={p.kind} highlighted={p.kind !== 'CA'} />
  );
  const subject = (p: WalletProvider) => <CertificateSubject {...names} row={p} subject={p.subject} />;
  const fingerprint = (p: WalletProvider) => <CertificateFingerprint {...names} row={p} fingerprint={p.fingerprint} />;
  const expiry = (p: WalletProvider) => <CertificateExpiry {...names} row={p} notAfter={p.not_after} now={now} />;
  const actions = (p: WalletProvider) => <CertificateDeleteAction {...names} row={p} onDelete={onDelete} />;
  const columns: ResponsiveTableColumn<WalletProvider>[] = [
    { id: 'name', header: t('walletProviders.columns.name'), cell: name, sx: { maxWidth: 260 } },
    { id: 'subject', header: t('walletProviders.columns.subject'), cell: subject, sx: { maxWidth: 260 } },
    {
      id: 'fingerprint',
      header: t('walletProviders.columns.fingerprint'),
      cell: fingerprint,
      sx: { whiteSpace: 'nowrap' },
    },
    { id: 'expires', header: t('walletProviders.columns.expires'), cell: expiry, sx: { whiteSpace: 'nowrap' } },
  ];
  return (
    <ResponsiveTable
      label={t('walletProviders.title')}
      rows={providers}
      columns={columns}
      actionsLabel={t('walletProviders.columns.actions')}
      renderActions={actions}
      testId="wallet-providers-table"
      rowTestId={(provider) => `wallet-provider-row-${provider.id}`}
      renderMobileItem={(provider) => (
        <CertificateMobileItem name={name(provider)} actions={actions(provider)}>
          <dt>{t('walletProviders.columns.subject')}</dt>
          <dd>{provider.subject}</dd>
          <dt>{t('walletProviders.columns.fingerprint')}</dt>
          <dd>{fingerprint(provider)}</dd>
          <dt>{t('walletProviders.columns.expires')}</dt>
          <dd>{expiry(provider)}</dd>
        </CertificateMobileItem>
      )}
    />
  );
}
