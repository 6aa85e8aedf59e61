import { type CreateWalletProviderRequest, WALLET_PROVIDERS_MAX, type WalletProvider } from '@cp/contracts';
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';
import { CertificateListPage } from '../../../components/certificate-list.tsx';
import { useIdentity } from '../../../lib/identity-context.ts';
import { useCreateWalletProvider } from '../api/create-wallet-provider.ts';
import { useDeleteWalletProvider } from '../api/delete-wallet-provider.ts';
import { useWalletProviders } from '../api/find-wallet-providers.ts';
import { WalletProviderFormDialog } from './wallet-provider-form-dialog.tsx';
import { WalletProvidersTable } from './wallet-providers-table.tsx';

/**
 * /wallet-providers: the wallet providers whose wallet attestations and key attestations the organization's
 * issuer trusts (an attestation signed by one of these certificates or under one of these CAs). Required of every
 * wallet when the issuer policy says so; effective for the next token request.
 */
export function WalletProvidersPage() {
  const { current } = useIdentity();
  const organizationId = current?.id ?? '';
  const providers = useWalletProviders(organizationId || undefined);
  const create = useCreateWalletProvider(organizationId);
  const remove = useDeleteWalletProvider(organizationId);
  return (
    <CertificateListPage<WalletProvider, CreateWalletProviderRequest>
      ns="walletProviders"
      testId="wallet-provider"
      max={WALLET_PROVIDERS_MAX}
      emptyIcon={<VerifiedUserOutlined />}
      list={providers}
      create={create.mutateAsync}
      remove={remove}
      renderTable={(rows, onDelete) => <WalletProvidersTable providers={rows} onDelete={onDelete} />}
      renderForm={(props) => <WalletProviderFormDialog {...props} />}
    />
  );
}
