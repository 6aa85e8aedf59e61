import {
  type AuditActionCategory,
  type AuditActorType,
  auditActionCategoryNames,
  auditActorTypes,
} from '@cp/contracts';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { useIdentity } from '../../../lib/identity-context.ts';
import { useSearchParams } from '../../../lib/use-search-params.ts';
import { type ActivityFilters, useAuditEvents } from '../api/find-audit-events.ts';
import { ActivityTable } from './activity-table.tsx';

const pageFrom = (value: string | null) => {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
};
const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  values.includes(value as T) ? (value as T) : undefined;
const day = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined);

/** The URL parameters of each filter: a filtered view can be bookmarked and shared. */
const PARAMS = { category: 'category', actorType: 'actor', from: 'from', to: 'to' } as const;

/** /activity: who changed what in the organization, newest first, 10 a page, filtered by the URL. */
export function ActivityPage() {
  const { t, i18n } = useTranslation();
  const { current } = useIdentity();
  const organizationId = current?.id ?? '';
  const [searchParams, setSearchParams] = useSearchParams();
  const page = pageFrom(searchParams.get('page'));
  const filters: ActivityFilters = {
    category: oneOf<AuditActionCategory>(auditActionCategoryNames, searchParams.get(PARAMS.category)),
    actorType: oneOf<AuditActorType>(auditActorTypes, searchParams.get(PARAMS.actorType)),
    from: day(searchParams.get(PARAMS.from)),
    to: day(searchParams.get(PARAMS.to)),
  };
  // A range given backwards is read the right way round rather than refused.
  if (filters.from && filters.to && filters.from > filters.to) [filters.from, filters.to] = [filters.to, filters.from];
  const events = useAuditEvents(organizationId || undefined, page, filters);
  const filtered = Object.values(filters).some(Boolean);

  const setParam = (name: string, value: string) => {
    const next = new URLSearchParams(searchParams);
    if (value) next.set(name, value);
    else next.delete(name);
    if (name !== 'page') next.delete('page');
    setSearchParams(next);
  };
  const clearFilters = () => {
    const next = new URLSearchParams(searchParams);
    for (const name of [...Object.values(PARAMS), 'page']) next.delete(name);
    setSearchParams(next);
  };

  const data = events.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;
  // Two filters a row on phones (four stacked fields would push the log below the fold), side by side above.
  const fieldSx = { minWidth: { xs: 0, sm: 180 }, flex: { xs: '1 1 calc(50% - 8px)', sm: '0 0 auto' } } as const;

  const filtersBar = (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center', mb: 2 }} data-testid="activity-filters">
      <TextField
        select
        size="small"
        label={t('activity.filters.category')}
        value={filters.category ?? ''}
        onChange={(event) => setParam(PARAMS.category, event.target.value)}
        sx={fieldSx}
        slotProps={{ htmlInput: { 'data-testid': 'activity-filter-category' } }}
      >
        <MenuItem value="">{t('activity.filters.allCategories')}</MenuItem>
        {auditActionCategoryNames.map((category) => (
          <MenuItem key={category} value={category}>
            {t(`activity.categories.${category}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('activity.filters.actorType')}
        value={filters.actorType ?? ''}
        onChange={(event) => setParam(PARAMS.actorType, event.target.value)}
        sx={fieldSx}
        slotProps={{ htmlInput: { 'data-testid': 'activity-filter-actor' } }}
      >
        <MenuItem value="">{t('activity.filters.allActors')}</MenuItem>
        {auditActorTypes.map((type) => (
          <MenuItem key={type} value={type}>
            {t(`activity.actorTypes.${type}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        type="date"
        size="small"
        label={t('activity.filters.from')}
        value={filters.from ?? ''}
        onChange={(event) => setParam(PARAMS.from, event.target.value)}
        sx={{ ...fieldSx, minWidth: { xs: 0, sm: 160 } }}
        slotProps={{
          inputLabel: { shrink: true },
          htmlInput: { 'data-testid': 'activity-filter-from', max: filters.to },
        }}
      />
      <TextField
        type="date"
        size="small"
        label={t('activity.filters.to')}
        value={filters.to ?? ''}
        onChange={(event) => setParam(PARAMS.to, event.target.value)}
        sx={{ ...fieldSx, minWidth: { xs: 0, sm: 160 } }}
        slotProps={{
          inputLabel: { shrink: true },
          htmlInput: { 'data-testid': 'activity-filter-to', min: filters.from },
        }}
      />
      {filtered && (
        <Button variant="text" color="secondary" onClick={clearFilters} data-testid="activity-clear-filters">
          {t('activity.filters.clear')}
        </Button>
      )}
    </Box>
  );

  let content: ReactNode;
  if (!data) {
    content = events.isError ? (
      <Card sx={{ p: 3, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }} data-testid="activity-error">
        <Typography variant="body2" sx={{ color: 'error.main', flex: 1 }}>
          {t('activity.errors.load')}
        </Typography>
        <Button variant="outlined" color="secondary" onClick={() => void events.refetch()}>
          {t('activity.retry')}
        </Button>
      </Card>
    ) : (
      <Card sx={{ p: 2 }} data-testid="activity-loading">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} height={48} />
        ))}
      </Card>
    );
  } else if (data.total === 0 && !filtered) {
    content = (
      <EmptyState icon={<HistoryOutlined />} title={t('activity.empty.title')} body={t('activity.empty.body')} />
    );
  } else {
    content = (
      <>
        {filtersBar}
        {data.total === 0 ? (
          <Card sx={{ p: 4, textAlign: 'center' }} data-testid="activity-no-match">
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('activity.empty.noMatch')}
            </Typography>
            <Button sx={{ mt: 1.5 }} variant="outlined" color="secondary" onClick={clearFilters}>
              {t('activity.filters.clear')}
            </Button>
          </Card>
        ) : (
          <>
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }} data-testid="activity-count">
              {data.total_exact
                ? t('activity.count', { count: data.total, total: data.total.toLocaleString(i18n.language) })
                : t('activity.countAtLeast', { total: data.total.toLocaleString(i18n.language) })}
            </Typography>
            <Card>
              <ActivityTable events={data.results} organizationId={organizationId} />
            </Card>
          </>
        )}
        {pageCount > 1 && (
          <Box sx={{ display: 'flex', justifyContent: 'center', mt: 3 }}>
            <Pagination
              count={pageCount}
              page={Math.min(page, pageCount)}
              onChange={(_, next) => setParam('page', next > 1 ? String(next) : '')}
              data-testid="activity-pagination"
            />
          </Box>
        )}
      </>
    );
  }

  return (
    <>
      <PageHeader title={t('activity.title')} subtitle={t('activity.subtitle')} />
      {content}
    </>
  );
}
