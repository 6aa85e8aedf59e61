import BusinessOutlined from '@mui/icons-material/BusinessOutlined';
import Button from '@mui/material/Button';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { RouterLink } from '../../../components/router-link.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { useIdentity } from '../../../lib/identity-context.ts';
import { KybBanner } from '../../kyb/components/kyb-banner.tsx';

/** /credentials: invites the user to complete the organization profile first (spec §2). */
export function CredentialsEmptyPage() {
  const { t } = useTranslation();
  const { current } = useIdentity();
  return (
    <>
      <PageHeader title={t('pages.credentials')} subtitle={t('pages.credentialsSubtitle')} />
      {current && <KybBanner organization={current} sx={{ mb: 3 }} />}
      <EmptyState
        icon={<BusinessOutlined />}
        title={t('credentials.emptyTitle')}
        body={t('credentials.emptyBody')}
        action={
          <Button
            variant="contained"
            component={RouterLink}
            to={current ? `/organization/${current.id}` : '/organization'}
            data-testid="complete-profile"
          >
            {t('credentials.emptyAction')}
          </Button>
        }
      />
    </>
  );
}
