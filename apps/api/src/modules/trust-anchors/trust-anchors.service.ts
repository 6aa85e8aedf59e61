import type { CreateTrustAnchorRequest } from '@cp/contracts';
import { TRUST_ANCHORS_MAX } from '@cp/contracts';
import { type CertificateSummary, describeCertificate } from '@cp/credentials';
import type { Database } from '@cp/db';
import { AppError } from '../../errors/app-error.ts';
import type { Logger } from '../../lib/logger.ts';
import type { ResourceFetcher } from '../../lib/resource-fetcher.ts';
import { type AuditActor, recordAuditEvent } from '../audit-events/audit-events.service.ts';
import * as repository from './trust-anchors.repository.ts';
import { readTrustedList } from './trusted-list.ts';

export const TRUSTED_LIST_REFRESH_QUEUE = 'trust-anchors.refresh-lists';

export interface TrustAnchorDeps {
  db: Database;
  /** Fetches trusted lists (outbound policy: public addresses only in production). */
  fetcher: ResourceFetcher;
}

/** One certificate an organization trusts for verification, with the anchor entry it came from. */
export interface OrganizationAnchorCertificate {
  pem: string;
  anchorId: string;
  /** The name the organization gave the anchor (a CA, or a trusted list). */
  name: string;
  kind: 'CERTIFICATE' | 'TRUSTED_LIST';
}

/**
 * The certificates an organization trusts as anchors right now: its CA certificates and the certificates
 * last read from its trusted lists. Read on every verification, so a change applies at once.
 */
export async function findAnchorCertificates(
  db: Database,
  organizationId: string,
): Promise<OrganizationAnchorCertificate[]> {
  return anchorCertificates(await repository.findTrustAnchors(db, organizationId));
}

/** What `anchorCertificates` reads of a trust anchor row. */
export type TrustAnchorFields = Pick<
  Awaited<ReturnType<typeof repository.findTrustAnchors>>[number],
  'id' | 'name' | 'kind' | 'certificatePem' | 'listCertificates'
>;

/** The certificates of trust anchor rows (in their order): a CA certificate, or a trusted list's certificates. */
export function anchorCertificates(rows: TrustAnchorFields[]): OrganizationAnchorCertificate[] {
  return rows.flatMap((row) => {
    const kind = row.kind === 'TRUSTED_LIST' ? ('TRUSTED_LIST' as const) : ('CERTIFICATE' as const);
    const pems = kind === 'CERTIFICATE' ? (row.certificatePem ? [row.certificatePem] : []) : row.listCertificates;
    return pems.map((pem) => ({ pem, anchorId: row.id, name: row.name, kind }));
  });
}

export const findTrustAnchors = (db: Database, organizationId: string) =>
  repository.findTrustAnchors(db, organizationId);

const invalid = (detail: string, path: string) =>
  new AppError('TRUST_ANCHOR_INVALID', { detail, errors: [{ path, message: detail }] });

/** A certificate read for an anchor: valid now, and for a CA anchor a CA that may sign certificates. */
async function readCertificate(pem: string, path: string, options: { mustBeCa: boolean }): Promise<CertificateSummary> {
  let summary: CertificateSummary;
  try {
    summary = await describeCertificate(pem);
  } catch {
    throw invalid('This is not a readable X.509 certificate.', path);
  }
  const now = new Date();
  if (summary.notAfter < now) throw invalid('This certificate has expired.', path);
  if (summary.notBefore > now) throw invalid('This certificate is not valid yet.', path);
  if (options.mustBeCa && !summary.isCa) {
    throw invalid('This is not a CA certificate (basicConstraints cA): it cannot certify issuers.', path);
  }
  if (options.mustBeCa && !summary.canSignCertificates) {
    throw invalid('This CA certificate may not sign certificates (keyUsage keyCertSign).', path);
  }
  return summary;
}

export async function createTrustAnchor(
  deps: TrustAnchorDeps,
  scope: { organizationId: string; userId: string | null; actor: AuditActor },
  input: CreateTrustAnchorRequest,
) {
  if ((await repository.countTrustAnchors(deps.db, scope.organizationId)) >= TRUST_ANCHORS_MAX) {
    throw new AppError('TRUST_ANCHOR_LIMIT_REACHED', { detail: `At most ${TRUST_ANCHORS_MAX} trust anchors.` });
  }
  const base = { organizationId: scope.organizationId, name: input.name, createdByUserId: scope.userId };
  let values: repository.NewTrustAnchor;
  if (input.kind === 'CERTIFICATE') {
    const summary = await readCertificate(input.certificate_pem, 'certificate_pem', { mustBeCa: true });
    values = {
      ...base,
      kind: 'CERTIFICATE',
      certificatePem: summary.pem,
      subject: summary.subject,
      fingerprint: summary.fingerprint,
      notAfter: summary.notAfter,
    };
  } else {
    const signer = await readCertificate(input.signer_certificate_pem, 'signer_certificate_pem', { mustBeCa: false });
    let list: Awaited<ReturnType<typeof readTrustedList>>;
    try {
      list = await readTrustedList(deps.fetcher, input.list_url, signer.pem);
    } catch (err) {
      throw invalid(`The list cannot be used: ${err instanceof Error ? err.message : String(err)}`, 'list_url');
    }
    values = {
      ...base,
      kind: 'TRUSTED_LIST',
      certificatePem: signer.pem,
      subject: signer.subject,
      // One list per URL and signer: the fingerprint of both.
      fingerprint: `list:${signer.fingerprint}:${input.list_url}`,
      notAfter: signer.notAfter,
      listUrl: input.list_url,
      listCertificates: list.certificates,
      listFetchedAt: new Date(),
      listError: null,
    };
  }
  return deps.db.transaction(async (tx) => {
    const row = await repository.insertTrustAnchor(tx, values);
    if (!row) throw new AppError('TRUST_ANCHOR_DUPLICATE', { detail: 'This organization already trusts this anchor.' });
    await recordAuditEvent(tx, scope, {
      action: 'trust_anchor.created',
      target: { id: row.id, label: row.name },
      details: { kind: row.kind },
    });
    return row;
  });
}

export async function deleteTrustAnchor(db: Database, organizationId: string, id: string, actor: AuditActor) {
  await db.transaction(async (tx) => {
    const row = await repository.findTrustAnchor(tx, organizationId, id);
    if (!row || !(await repository.deleteTrustAnchor(tx, organizationId, id))) {
      throw new AppError('TRUST_ANCHOR_NOT_FOUND');
    }
    await recordAuditEvent(
      tx,
      { organizationId, actor },
      { action: 'trust_anchor.deleted', target: { id, label: row.name }, details: { kind: row.kind } },
    );
  });
}

/**
 * Reads a trusted list again; a failure is recorded and the certificates last read stay in force. `andThen`
 * runs in the transaction that stores the outcome (a member's refresh records its activity-log event there).
 */
async function refreshRow(
  deps: TrustAnchorDeps,
  row: repository.TrustAnchorRow,
  andThen?: (tx: Database, updated: repository.TrustAnchorRow) => Promise<void>,
) {
  let values: Parameters<typeof repository.updateTrustedList>[2];
  try {
    const list = await readTrustedList(deps.fetcher, row.listUrl ?? '', row.certificatePem ?? '');
    values = { listCertificates: list.certificates, listFetchedAt: new Date(), listError: null };
  } catch (err) {
    values = {
      listCertificates: row.listCertificates,
      listFetchedAt: row.listFetchedAt,
      listError: (err instanceof Error ? err.message : String(err)).slice(0, 300),
    };
  }
  if (!andThen) return repository.updateTrustedList(deps.db, row.id, values);
  return deps.db.transaction(async (tx) => {
    const updated = await repository.updateTrustedList(tx, row.id, values);
    if (updated) await andThen(tx, updated);
    return updated;
  });
}

export async function refreshTrustAnchor(deps: TrustAnchorDeps, organizationId: string, id: string, actor: AuditActor) {
  const row = await repository.findTrustAnchor(deps.db, organizationId, id);
  if (!row) throw new AppError('TRUST_ANCHOR_NOT_FOUND');
  if (row.kind !== 'TRUSTED_LIST') return row;
  // The list is fetched outside any transaction (a slow server must not hold one open); the new state and its
  // event are written together.
  const refreshed = await refreshRow(deps, row, async (tx, updated) => {
    await recordAuditEvent(
      tx,
      { organizationId, actor },
      {
        action: 'trust_anchor.refreshed',
        target: { id, label: row.name },
        details: { succeeded: updated.listError === null, certificate_count: updated.listCertificates.length },
      },
    );
  });
  return refreshed ?? row;
}

/** The hourly job: every organization's trusted lists, read again. */
export async function refreshTrustedLists(deps: TrustAnchorDeps, logger?: Logger) {
  const rows = await repository.findAllTrustedLists(deps.db);
  let failed = 0;
  for (const row of rows) {
    const updated = await refreshRow(deps, row);
    if (updated?.listError) failed += 1;
  }
  logger?.info({ lists: rows.length, failed }, 'trusted lists refreshed');
}
