import type { CredentialSchema } from '@cp/contracts';
import { visuallyHidden } from '@cp/ui';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { RouterLink } from '../../../components/router-link.tsx';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { type TFunction, useTranslation } from '../../../i18n/index.ts';
import { credentialSchemaText } from '../../../lib/credential-schema-text.ts';

/** Hidden on phones: the name, the actions and the date are what matter there. */
const wideOnly = { display: { xs: 'none', md: 'table-cell' } } as const;

function creatorName(schema: CredentialSchema, t: TFunction) {
  if (!schema.deleteable) return t('credentialSchemas.platform');
  const created = schema.created;
  if (!created) return t('credentialSchemas.apiKey');
  const fullName = [created.first_name, created.last_name].filter(Boolean).join(' ');
  return fullName || created.username || '—';
}

export function CredentialSchemasTable({
  schemas,
  onView,
  onDelete,
}: {
  schemas: CredentialSchema[];
  onView: (schema: CredentialSchema) => void;
  onDelete: (schema: CredentialSchema) => void;
}) {
  const { t, i18n } = useTranslation();
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  return (
    <ScrollRegion label={t('credentialSchemas.title')}>
      <Table data-testid="schemas-table" sx={{ tableLayout: { md: 'fixed' } }}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: { md: '27%' } }}>{t('credentialSchemas.columns.name')}</TableCell>
            <TableCell sx={{ ...wideOnly, width: '30%' }}>{t('credentialSchemas.columns.description')}</TableCell>
            <TableCell sx={{ ...wideOnly, width: '19%' }}>{t('credentialSchemas.columns.createdBy')}</TableCell>
            <TableCell sx={{ ...wideOnly, width: '12%' }}>{t('credentialSchemas.columns.createdAt')}</TableCell>
            <TableCell align="right" sx={{ width: { md: 144 } }}>
              <Box component="span" sx={visuallyHidden}>
                {t('credentialSchemas.columns.actions')}
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {schemas.map((schema) => {
            const text = credentialSchemaText(schema, i18n);
            return (
              <TableRow key={schema.id} hover data-testid={`schema-row-${schema.id}`}>
                <TableCell>
                  <Typography variant="subtitle1" sx={{ color: 'text.primary', overflowWrap: 'anywhere' }}>
                    {text.name}
                  </Typography>
                  <Box sx={{ display: 'flex', gap: 0.75, flexWrap: 'wrap', mt: 0.5, alignItems: 'center' }}>
                    <Typography variant="caption" sx={{ color: 'text.secondary', fontSize: 13 }}>
                      {t('credentialSchemas.attributeCount', { count: schema.attributes.length })}
                      {/* Phones have no date column: the date joins the attribute count. */}
                      <Box component="span" sx={{ display: { md: 'none' } }}>
                        {' · '}
                        {dateFormat.format(new Date(schema.created_at))}
                      </Box>
                    </Typography>
                    {schema.issue_disabled && (
                      <Chip
                        size="small"
                        color="warning"
                        variant="outlined"
                        label={t('credentialSchemas.verifyOnly')}
                        data-testid={`schema-verify-only-${schema.id}`}
                      />
                    )}
                  </Box>
                </TableCell>
                <TableCell sx={wideOnly}>
                  <Typography
                    variant="body2"
                    sx={{
                      color: 'text.secondary',
                      display: '-webkit-box',
                      WebkitLineClamp: 2,
                      WebkitBoxOrient: 'vertical',
                      overflow: 'hidden',
                      overflowWrap: 'anywhere',
                    }}
                  >
                    {text.description || '—'}
                  </Typography>
                </TableCell>
                <TableCell sx={wideOnly}>
                  <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                    {creatorName(schema, t)}
                  </Typography>
                </TableCell>
                <TableCell sx={wideOnly}>
                  <Typography variant="body2" sx={{ color: 'text.secondary', whiteSpace: 'nowrap' }}>
                    {dateFormat.format(new Date(schema.created_at))}
                  </Typography>
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap', px: 1, width: { xs: 128, md: 'auto' } }}>
                  <Tooltip title={t('credentialSchemas.view')}>
                    <IconButton
                      aria-label={t('credentialSchemas.view')}
                      onClick={() => onView(schema)}
                      data-testid={`schema-view-${schema.id}`}
                    >
                      <VisibilityOutlined fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('credentialSchemas.duplicate')}>
                    <IconButton
                      aria-label={t('credentialSchemas.duplicate')}
                      component={RouterLink}
                      to={`/schemas/create/${schema.id}`}
                      data-testid={`schema-duplicate-${schema.id}`}
                    >
                      <ContentCopyOutlined fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip
                    title={schema.deleteable ? t('credentialSchemas.delete') : t('credentialSchemas.cannotDelete')}
                  >
                    {/* A span keeps the tooltip on a disabled button. */}
                    <span>
                      <IconButton
                        aria-label={t('credentialSchemas.delete')}
                        onClick={() => onDelete(schema)}
                        disabled={!schema.deleteable}
                        data-testid={`schema-delete-${schema.id}`}
                      >
                        <DeleteOutlineOutlined fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}
