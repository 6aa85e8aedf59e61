import LockOutlined from '@mui/icons-material/LockOutlined';
import Button from '@mui/material/Button';
import type { ReactNode } from 'react';
import { EmptyState } from '../../components/empty-state.tsx';
import { RouterLink } from '../../components/router-link.tsx';
import { useTranslation } from '../../i18n/index.ts';
import { useIdentity } from '../../lib/identity-context.ts';
import { isOrganizationAdmin } from '../../lib/organization-role.ts';

/**
 * Pages for the organization's admins (API keys and webhooks, trust anchors): a member who opens one (an old
 * bookmark, a shared link) is told why instead of meeting the API's refusals. The menu does not offer them.
 */
export function AdminOnlyRoute({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { current } = useIdentity();
  if (isOrganizationAdmin(current)) return children;
  return (
    <div data-testid="admin-only">
      <EmptyState
        icon={<LockOutlined />}
        title={t('members.adminOnly.title')}
        body={t('members.adminOnly.body', { organization: current?.name ?? '' })}
        action={
          <Button variant="outlined" color="secondary" component={RouterLink} to="/members">
            {t('members.adminOnly.action')}
          </Button>
        }
      />
    </div>
  );
}
