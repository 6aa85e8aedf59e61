import { useParams } from 'react-router';
import { CredentialsPage } from '../../features/credentials/components/credentials-page.tsx';
import { ProfileCompletionHint } from '../../features/organizations/components/profile-completion-hint.tsx';
import { useIdentity } from '../../lib/identity-context.ts';

/**
 * /credentials/{orgId}, where signing in lands: the credential list, with a dismissible hint above it while the
 * organization's profile lacks a description or a logo (the list itself belongs to the credentials feature).
 */
export function CredentialListRoute() {
  const { orgId } = useParams();
  const { current, organizations } = useIdentity();
  const organization = organizations.find((o) => o.id === orgId) ?? current;
  return (
    <>
      <ProfileCompletionHint organization={organization} sx={{ mb: 3 }} />
      <CredentialsPage />
    </>
  );
}
