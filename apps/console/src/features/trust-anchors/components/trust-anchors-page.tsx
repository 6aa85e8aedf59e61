import { type CreateTrustAnchorRequest, TRUST_ANCHORS_MAX, type TrustAnchor } from '@cp/contracts';
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import { CertificateListPage } from '../../../components/certificate-list.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { useIdentity } from '../../../lib/identity-context.ts';
import { notify } from '../../../lib/notifications.ts';
import { useCreateTrustAnchor } from '../api/create-trust-anchor.ts';
import { useDeleteTrustAnchor } from '../api/delete-trust-anchor.ts';
import { useTrustAnchors } from '../api/find-trust-anchors.ts';
import { useRefreshTrustAnchor } from '../api/refresh-trust-anchor.ts';
import { TrustAnchorFormDialog } from './trust-anchor-form-dialog.tsx';
import { TrustAnchorsTable } from './trust-anchors-table.tsx';

/**
 * /trust-anchors: the certificate authorities and trusted lists whose certified issuers the organization's
 * verifications trust when their policy is "Issuers certified by my trust anchors". Effective for the next
 * presentation.
 */
export function TrustAnchorsPage() {
  const { t } = useTranslation();
  const { current } = useIdentity();
  const organizationId = current?.id ?? '';
  const anchors = useTrustAnchors(organizationId || undefined);
  const create = useCreateTrustAnchor(organizationId);
  const remove = useDeleteTrustAnchor(organizationId);
  const refresh = useRefreshTrustAnchor(organizationId);

  const readAgain = async (anchor: TrustAnchor) => {
    try {
      const answer = await refresh.mutateAsync(anchor.id);
      notify(
        answer.list_error
          ? { severity: 'warning', title: t('trustAnchors.listError', { error: answer.list_error }) }
          : { severity: 'success', title: t('trustAnchors.refreshed', { name: anchor.name }) },
      );
    } catch {
      notify({ severity: 'error', title: t('trustAnchors.errors.refresh') });
    }
  };

  return (
    <CertificateListPage<TrustAnchor, CreateTrustAnchorRequest>
      ns="trustAnchors"
      testId="trust-anchor"
      max={TRUST_ANCHORS_MAX}
      emptyIcon={<AccountTreeOutlined />}
      list={anchors}
      create={create.mutateAsync}
      remove={remove}
      renderTable={(rows, onDelete) => (
        <TrustAnchorsTable
          anchors={rows}
          onDelete={onDelete}
          onRefresh={(anchor) => void readAgain(anchor)}
          refreshingId={refresh.isPending ? (refresh.variables ?? null) : null}
        />
      )}
      renderForm={(props) => <TrustAnchorFormDialog {...props} />}
    />
  );
}
