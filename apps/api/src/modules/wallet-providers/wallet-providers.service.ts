import type { CreateWalletProviderRequest } from '@cp/contracts';
import { WALLET_PROVIDERS_MAX } from '@cp/contracts';
import {
  CertificatePathError,
  type CertificateSummary,
  describeCertificate,
  validateSigningChain,
} from '@cp/credentials';
import type { Database } from '@cp/db';
import { AppError } from '../../errors/app-error.ts';
import { type AuditActor, recordAuditEvent } from '../audit-events/audit-events.service.ts';
import * as repository from './wallet-providers.repository.ts';

export type { WalletProviderRow } from './wallet-providers.repository.ts';

export const findWalletProviders = (db: Database, organizationId: string) =>
  repository.findWalletProviders(db, organizationId);

const invalid = (detail: string) =>
  new AppError('WALLET_PROVIDER_INVALID', { detail, errors: [{ path: 'certificate_pem', message: detail }] });

/**
 * A certificate an organization may trust for wallet attestations: valid now, and either a CA that may sign
 * certificates (attestations signed under it are trusted) or an end-entity certificate fit to sign (the
 * provider's attestation signing certificate itself, pinned).
 */
async function readCertificate(pem: string): Promise<CertificateSummary & { kind: 'CA' | 'SIGNING' }> {
  let summary: CertificateSummary;
  try {
    summary = await describeCertificate(pem);
  } catch {
    throw invalid('This is not a readable X.509 certificate.');
  }
  const now = new Date();
  if (summary.notAfter < now) throw invalid('This certificate has expired.');
  if (summary.notBefore > now) throw invalid('This certificate is not valid yet.');
  if (summary.isCa && !summary.canSignCertificates) {
    throw invalid('This CA certificate may not sign certificates (keyUsage keyCertSign).');
  }
  if (!summary.isCa) {
    // A pinned signing certificate must be usable as one: the same check the issuer applies to attestations.
    try {
      await validateSigningChain([pemBody(summary.pem)], [summary.pem], now);
    } catch (err) {
      throw invalid(`This certificate cannot sign attestations: ${err instanceof Error ? err.message : String(err)}.`);
    }
  }
  return { ...summary, kind: summary.isCa ? 'CA' : 'SIGNING' };
}

const pemBody = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, '');

export async function createWalletProvider(
  db: Database,
  scope: { organizationId: string; userId: string | null; actor: AuditActor },
  input: CreateWalletProviderRequest,
) {
  if ((await repository.countWalletProviders(db, scope.organizationId)) >= WALLET_PROVIDERS_MAX) {
    throw new AppError('WALLET_PROVIDER_LIMIT_REACHED', {
      detail: `At most ${WALLET_PROVIDERS_MAX} wallet providers.`,
    });
  }
  const summary = await readCertificate(input.certificate_pem);
  return db.transaction(async (tx) => {
    const row = await repository.insertWalletProvider(tx, {
      organizationId: scope.organizationId,
      name: input.name,
      kind: summary.kind,
      certificatePem: summary.pem,
      fingerprint: summary.fingerprint,
      subject: summary.subject,
      notAfter: summary.notAfter,
      createdByUserId: scope.userId,
    });
    if (!row) {
      throw new AppError('WALLET_PROVIDER_DUPLICATE', { detail: 'This organization already trusts this certificate.' });
    }
    await recordAuditEvent(tx, scope, {
      action: 'wallet_provider.created',
      target: { id: row.id, label: row.name },
      details: { kind: row.kind },
    });
    return row;
  });
}

export async function deleteWalletProvider(db: Database, organizationId: string, id: string, actor: AuditActor) {
  await db.transaction(async (tx) => {
    const row = await repository.findWalletProvider(tx, organizationId, id);
    if (!row || !(await repository.deleteWalletProvider(tx, organizationId, id))) {
      throw new AppError('WALLET_PROVIDER_NOT_FOUND');
    }
    await recordAuditEvent(
      tx,
      { organizationId, actor },
      { action: 'wallet_provider.deleted', target: { id, label: row.name }, details: { kind: row.kind } },
    );
  });
}

/** The provider that vouches for an attestation's signing key, and the path that says so. */
export interface WalletProviderVouch {
  provider: { id: string; name: string };
  /** The attestation's signing key (the x5c leaf) and its certificate's subject. */
  signerJwk: JsonWebKey;
  certificateSubject: string;
}

/**
 * The one place that decides "this wallet provider vouches for this attestation key": the attestation's `x5c`
 * is one of the organization's trusted wallet provider certificates or chains to one of its CA certificates
 * (RFC 5280 path validation by @cp/credentials, validity now, leaf fit for signing). Read on every request,
 * so adding or removing a provider applies at once. Throws an Error saying why not.
 */
export async function vouchForAttestation(
  db: Database,
  organizationId: string,
  x5c: unknown,
  now = new Date(),
): Promise<WalletProviderVouch> {
  const providers = await repository.findWalletProviders(db, organizationId);
  if (providers.length === 0) throw new Error('this issuer trusts no wallet provider');
  try {
    const path = await validateSigningChain(
      x5c,
      providers.map((p) => p.certificatePem),
      now,
    );
    const provider = providers[path.anchor.index]!;
    return {
      provider: { id: provider.id, name: provider.name },
      signerJwk: path.leafJwk,
      certificateSubject: path.subject,
    };
  } catch (err) {
    if (err instanceof CertificatePathError) {
      throw new Error(
        err.code === 'CHAIN_UNTRUSTED'
          ? 'its certificate is not of a wallet provider this issuer trusts'
          : `its certificate chain is not valid (${err.message})`,
      );
    }
    throw err;
  }
}
