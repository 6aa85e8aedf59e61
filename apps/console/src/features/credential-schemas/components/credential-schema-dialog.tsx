import type { CredentialSchema } from '@cp/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { RouterLink } from '../../../components/router-link.tsx';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { credentialSchemaText } from '../../../lib/credential-schema-text.ts';

/** On phones the description goes under the attribute name. */
const wideOnly = { display: { xs: 'none', md: 'table-cell' } } as const;

/** The "view" action of the schema list: a schema's attributes, read-only. */
export function CredentialSchemaDialog({ schema, onClose }: { schema: CredentialSchema | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const text = schema ? credentialSchemaText(schema, i18n) : null;
  return (
    <Dialog open={schema !== null} onClose={onClose} maxWidth="md" fullWidth data-testid="schema-view-dialog">
      {schema && (
        <>
          <DialogTitle sx={{ pb: 1 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
              <span>{text?.name}</span>
              {schema.issue_disabled && (
                <Chip size="small" color="warning" variant="outlined" label={t('credentialSchemas.verifyOnly')} />
              )}
              {!schema.deleteable && <Chip size="small" variant="outlined" label={t('credentialSchemas.platform')} />}
            </Box>
          </DialogTitle>
          <DialogContent>
            {text?.description && (
              <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2, whiteSpace: 'pre-line' }}>
                {text.description}
              </Typography>
            )}
            <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mb: 2 }}>
              {t('credentialSchemas.viewDialog.identifier')}:{' '}
              <Box component="code" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 }}>
                {schema.slug}
              </Box>
            </Typography>
            <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
              {t('credentialSchemas.viewDialog.attributes')}
            </Typography>
            <ScrollRegion
              label={t('credentialSchemas.viewDialog.attributes')}
              sx={{ border: '1px solid', borderColor: 'divider', borderRadius: 2 }}
            >
              <Table size="small">
                <TableHead>
                  <TableRow>
                    <TableCell>{t('credentialSchemas.viewDialog.name')}</TableCell>
                    <TableCell>{t('credentialSchemas.viewDialog.type')}</TableCell>
                    <TableCell sx={wideOnly}>{t('credentialSchemas.viewDialog.description')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {schema.attributes.map((attribute) => (
                    <TableRow key={attribute.id} data-testid={`schema-attribute-${attribute.name}`}>
                      <TableCell>
                        <Box
                          component="code"
                          sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 }}
                        >
                          {attribute.name}
                        </Box>
                        {attribute.description && (
                          <Typography
                            variant="body2"
                            sx={{ display: { md: 'none' }, color: 'text.secondary', mt: 0.5 }}
                          >
                            {attribute.description}
                          </Typography>
                        )}
                      </TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        {t(`credentialSchemas.types.${attribute.type}`)}
                      </TableCell>
                      <TableCell sx={{ ...wideOnly, color: 'text.secondary' }}>
                        {attribute.description ?? '—'}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </ScrollRegion>
            <Alert severity="info" sx={{ mt: 2 }}>
              {t('credentialSchemas.viewDialog.immutable')}
            </Alert>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2.5 }}>
            <Button color="secondary" onClick={onClose}>
              {t('common.close')}
            </Button>
            <Button variant="outlined" component={RouterLink} to={`/schemas/create/${schema.id}`}>
              {t('credentialSchemas.duplicate')}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
