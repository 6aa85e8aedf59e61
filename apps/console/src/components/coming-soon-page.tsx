import ConstructionOutlined from '@mui/icons-material/ConstructionOutlined';
import { useTranslation } from 'react-i18next';
import { EmptyState } from './empty-state.tsx';
import { PageHeader } from './page-header.tsx';

/** Placeholder for a capability that lands in a later change. */
export function ComingSoonPage({ titleKey, subtitleKey }: { titleKey: string; subtitleKey?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t(titleKey)} subtitle={subtitleKey ? t(subtitleKey) : undefined} />
      <EmptyState
        icon={<ConstructionOutlined />}
        title={t('common.comingSoonTitle')}
        body={t('common.comingSoonBody')}
      />
    </>
  );
}
