import type { IssuerTrustReason } from '@cp/contracts';
import {
  bindIssuerKey,
  cachedPathValidator,
  certificateSubject,
  type IssuerAdmission,
  type IssuerBinding,
  type IssuerTrustOptions,
  issuerIdentifiers,
  keyOrigin,
  type PresentationVerifierDeps,
  sameIssuer,
  verifyStatusListToken,
} from '@cp/credentials';
import { isMdocDocTypeOf, type MdocVerifierDeps, mdocNames } from '@cp/credentials/mdoc';
import type { Database, schema } from '@cp/db';
import type { ResourceFetcher } from '../../lib/resource-fetcher.ts';
import * as organizationsRepository from '../organizations/organizations.repository.ts';
import * as trustAnchorsService from '../trust-anchors/trust-anchors.service.ts';
import type { OwnStatusList, PlatformStatusLists } from './platform-fetcher.ts';
import type { IssuerSnapshot } from './verifications.repository.ts';

/**
 * The verifier's trust: which certificate authorities may end an `x5c` path (the platform CA, the
 * platform-wide VERIFIER_TRUST_ANCHORS_FILE, the organization's own anchors), the binding of keys to
 * issuers (bindIssuerKey, the one function shared with the wallet), and each verification's trust policy
 * with the rule that a type belongs to its issuer. Every outcome says why the issuer was admitted or refused.
 */

/** Where an anchor comes from: the platform's CA, the platform-wide file, or the organization itself. */
export type AnchorOrigin = 'PLATFORM_CA' | 'PLATFORM_LIST' | 'ORGANIZATION';

export interface Anchor {
  pem: string;
  origin: AnchorOrigin;
  /** What people call it: the anchor's name in the console, or its subject. */
  name: string;
  anchorId?: string;
}

/** What a verification's outcome keeps about its issuer (`verification_individuals.issuer_trust`). */
export interface IssuerTrustRecord extends IssuerAdmission {
  policy: schema.TrustPolicy;
  key_source: IssuerBinding['source'];
  /** x5c: the leaf's subject, and the anchor its path ends at. */
  certificate: { subject: string; anchor: { subject: string; name: string; origin: AnchorOrigin } | null } | null;
  /** The issuer is an organization of this platform. */
  organization: { id: string; name: string; verified: boolean } | null;
}

export interface VerifierTrustOptions {
  db: Database;
  publicUrl: string;
  fetcher: ResourceFetcher;
  /** The platform CA and VERIFIER_TRUST_ANCHORS_FILE. */
  platformAnchors: Anchor[];
  allowHttp: boolean;
  /**
   * This platform's own status lists: the list a credential of a platform issuer names is read with the issuer
   * organization (one statement), and its token made from that row.
   */
  statusLists?: PlatformStatusLists;
}

/**
 * Issuer organizations of this platform (with the status list of their credential) as read for earlier
 * presentations, for a minute: a check may take one instead of a statement only when its outcome is stored on
 * condition that the organization and the list are still so (verifications.repository.ts, IssuerSnapshot).
 */
const SNAPSHOT_MS = 60_000;
const SNAPSHOT_MAX = 1000;
type IssuerOrganizationRow = { id: string; name: string; verifiedAt: Date | null };
type StatusListRead = NonNullable<Parameters<PlatformStatusLists['token']>[1]>['list'];

/**
 * A validated path is kept a minute, and only while its certificates are valid: paths repeat (one per issuer key)
 * and validating one is costly.
 */
const PATH_CACHE_MS = 60_000;
const PATH_CACHE_MAX = 500;
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

export interface VerificationTrustInput {
  organizationId: string;
  trustPolicy: schema.TrustPolicy;
  trustedIssuers: string[];
  /** The organization's trust anchors when already read (with the attempt); otherwise they are read here. */
  anchors?: trustAnchorsService.TrustAnchorFields[];
}

export function verifierTrust(options: VerifierTrustOptions) {
  const snapshots = new Map<string, { at: number; organization: IssuerOrganizationRow; list: StatusListRead }>();
  const fetchJson = async (url: string) => JSON.parse(await options.fetcher.text(url, 'application/json')) as unknown;
  const allowHttp = () => options.allowHttp;
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const organizationIssuer = new RegExp(`^${escapeRegExp(publicUrl)}/orgs/(${UUID})$`, 'i');
  const organizationType = new RegExp(`^${escapeRegExp(publicUrl)}/orgs/(${UUID})/vct/`, 'i');
  const platformType = `${publicUrl}/vct/`;
  // The same types as mdoc doctypes (mdocNames: host labels reversed, then the path; the port is dropped).
  const docTypePrefix = escapeRegExp(mdocNames({ vct: publicUrl }).docType);
  const organizationDocType = new RegExp(`^${docTypePrefix}\\.orgs\\.(${UUID})\\.`, 'i');
  const platformDocType = new RegExp(`^${docTypePrefix}\\.vct\\.`, 'i');

  const validatePath = cachedPathValidator({ maxAgeMs: PATH_CACHE_MS, max: PATH_CACHE_MAX });

  /** The organization of this platform that `iss` names (its issuer URL or did:web), if any. */
  const platformOrganizationId = (iss: string) => {
    for (const name of issuerIdentifiers(iss)) {
      const match = organizationIssuer.exec(name);
      if (match?.[1]) return match[1].toLowerCase();
    }
    return undefined;
  };

  /** The anchors of one organization's verifications: the platform's and its own, read now. */
  async function anchorsOf(organizationId: string, read?: trustAnchorsService.TrustAnchorFields[]): Promise<Anchor[]> {
    const own = read
      ? trustAnchorsService.anchorCertificates(read)
      : await trustAnchorsService.findAnchorCertificates(options.db, organizationId);
    return [
      ...options.platformAnchors,
      ...own.map((a) => ({ pem: a.pem, origin: 'ORGANIZATION' as const, name: a.name, anchorId: a.anchorId })),
    ];
  }

  /**
   * The presentation verifier's dependencies for one verification: key binding with its anchors, its trust
   * policy, the status-list check; `record()` answers what the outcome keeps about the issuer.
   */
  function forVerification(verification: VerificationTrustInput, use: { snapshots?: boolean } = {}) {
    let anchors: Promise<Anchor[]> | undefined;
    const loadAnchors = () => {
      anchors ??= anchorsOf(verification.organizationId, verification.anchors);
      return anchors;
    };
    const bindOptions = async (): Promise<IssuerTrustOptions> => ({
      fetchJson,
      trustAnchors: (await loadAnchors()).map((a) => a.pem),
      allowHttp,
      validatePath,
    });
    let record: IssuerTrustRecord | undefined;
    /** The status list URI of the credential being checked (seen when its issuer key is bound). */
    let statusUri: string | undefined;
    /** That list's row, read with its issuer organization (admitIssuer), for its token (fetchStatusListToken). */
    let statusListRead:
      | { uri: string; ref: OwnStatusList; read: Parameters<PlatformStatusLists['token']>[1] }
      | undefined;
    /** What this check took from `snapshots` instead of reading it (one at most: the update holds one). */
    let snapshot: IssuerSnapshot | undefined;

    /** The issuer organization, with the credential's status list when it is one of that organization's. */
    async function issuerOrganization(organizationId: string): Promise<IssuerOrganizationRow | undefined> {
      const parsed = statusUri && options.statusLists ? options.statusLists.ref(statusUri) : undefined;
      const ref = parsed && parsed.organizationId === organizationId && statusUri ? parsed : undefined;
      const key = `${organizationId}|${ref ? (ref.statusListId ?? 'first') : '-'}`;
      const hit = snapshots.get(key);
      if (use.snapshots && !snapshot && hit && Date.now() - hit.at < SNAPSHOT_MS) {
        snapshot = {
          organizationId,
          name: hit.organization.name,
          verified: hit.organization.verifiedAt != null,
          statusList: hit.list ? { id: hit.list.id, revision: hit.list.revision } : null,
        };
        if (ref && statusUri) statusListRead = { uri: statusUri, ref, read: { list: hit.list } };
        return hit.organization;
      }
      let organization: IssuerOrganizationRow | undefined;
      let list: StatusListRead;
      if (ref && statusUri) {
        const row = await organizationsRepository.findIssuerOrganizationWithStatusList(
          options.db,
          organizationId,
          ref.statusListId,
        );
        if (row) statusListRead = { uri: statusUri, ref, read: { list: row.list } };
        organization = row?.organization;
        list = row?.list;
        // A list that is not there is read again each time (and the credential fails its status check).
        if (!list) return organization;
      } else {
        organization = await organizationsRepository.findIssuerOrganization(options.db, organizationId);
      }
      if (organization) {
        snapshots.delete(key);
        snapshots.set(key, { at: Date.now(), organization, list });
        if (snapshots.size > SNAPSHOT_MAX) snapshots.delete(snapshots.keys().next().value as string);
      }
      return organization;
    }

    const anchorOf = async (binding: IssuerBinding) => {
      const index = binding.certificate?.path?.anchor.index;
      return index === undefined ? undefined : (await loadAnchors())[index];
    };

    /** The policy on a bound issuer, and whether its type (`vct`, or an mdoc's doctype) may be its. */
    async function admitIssuer(binding: IssuerBinding, credential: { vct: string | null } | { docType: string }) {
      const anchor = await anchorOf(binding);
      const organizationId = platformOrganizationId(binding.iss);
      const organization = organizationId ? await issuerOrganization(organizationId).catch(() => undefined) : undefined;
      const verified = organization?.verifiedAt != null;
      const admission = admit(binding, anchor, organizationId, organization, verification);
      const [type, owner] =
        'docType' in credential
          ? [credential.docType, docTypeOwner(credential.docType)]
          : [credential.vct, vctOwner(credential.vct)];
      const typeDecision = typeBinding(type, owner, organizationId, verified, admission, verification.trustPolicy);
      record = {
        ...admission,
        policy: verification.trustPolicy,
        key_source: binding.source,
        certificate: binding.certificate
          ? {
              subject: binding.certificate.subject,
              anchor: anchor
                ? {
                    subject: binding.certificate.path?.anchor.subject ?? '',
                    name: anchor.name,
                    origin: anchor.origin,
                  }
                : null,
            }
          : null,
        organization: organization ? { id: organization.id, name: organization.name, verified } : null,
      };
      return { issuer: admission, type: typeDecision };
    }

    const deps: PresentationVerifierDeps = {
      admitIssuer,
      async bindIssuerKey(header, payload) {
        const status = (payload.status as { status_list?: { uri?: unknown } } | undefined)?.status_list?.uri;
        statusUri = typeof status === 'string' ? status : undefined;
        // Anchors matter only for x5c; the others never read them.
        return bindIssuerKey(
          header,
          payload,
          header.x5c === undefined ? { fetchJson, trustAnchors: [], allowHttp } : await bindOptions(),
        );
      },

      async fetchStatusListToken(uri, issuer) {
        const read = statusListRead?.uri === uri ? statusListRead : undefined;
        statusListRead = undefined;
        const token =
          read && options.statusLists
            ? await options.statusLists.token(read.ref, read.read)
            : await options.fetcher.text(uri, 'application/statuslist+jwt');
        await verifyStatusListToken(token.trim(), uri, issuer, await bindOptions());
        return token.trim();
      },
    };
    /** The same trust for an mdoc (verifyMdocPresentation): its x5chain to these anchors, its doctype's owner. */
    const mdocDeps = async (): Promise<MdocVerifierDeps> => ({
      trustAnchors: (await loadAnchors()).map((a) => a.pem),
      validatePath,
      admitIssuer,
      fetchStatusListToken: (uri, issuer) => deps.fetchStatusListToken(uri, issuer),
    });
    return { deps, mdocDeps, record: () => record, snapshot: () => snapshot };
  }

  /** Whose type a `vct` is: an organization's own (its id), the platform's shared type, or another issuer's. */
  function vctOwner(vct: string | null): TypeOwner {
    if (!vct) return { kind: 'OTHER' };
    const owner = organizationType.exec(vct)?.[1]?.toLowerCase();
    if (owner) return { kind: 'ORGANIZATION', organizationId: owner };
    return vct.toLowerCase().startsWith(platformType.toLowerCase()) ? { kind: 'PLATFORM' } : { kind: 'OTHER' };
  }

  /** The same for an mdoc doctype (derived from the vct by mdocNames, so an organization's types stay its own). */
  function docTypeOwner(docType: string): TypeOwner {
    const owner = organizationDocType.exec(docType)?.[1]?.toLowerCase();
    if (owner && isMdocDocTypeOf(docType.toLowerCase(), `${publicUrl}/orgs/${owner}`)) {
      return { kind: 'ORGANIZATION', organizationId: owner };
    }
    return platformDocType.test(docType) ? { kind: 'PLATFORM' } : { kind: 'OTHER' };
  }

  /** The verification's trust policy on a bound issuer. */
  function admit(
    binding: IssuerBinding,
    anchor: Anchor | undefined,
    organizationId: string | undefined,
    organization: { name: string; verifiedAt: Date | null } | undefined,
    verification: VerificationTrustInput,
  ): IssuerAdmission {
    const refuse = (reason: IssuerTrustReason, detail: string) => ({ admitted: false, reason, detail });
    const accept = (reason: IssuerTrustReason, detail: string) => ({ admitted: true, reason, detail });
    // This platform's issuer identifiers are vouched for by this platform alone: a certificate from
    // anyone else's CA naming `<PUBLIC_URL>/orgs/<id>` does not speak for that organization.
    if (organizationId && binding.source === 'x5c' && anchor?.origin !== 'PLATFORM_CA') {
      return refuse(
        'PLATFORM_ISSUER_NOT_CERTIFIED_BY_PLATFORM',
        `Refused: ${binding.iss} is an issuer of this platform, but its certificate is not from this platform's CA`,
      );
    }
    if (organizationId && !organization) {
      return refuse('UNKNOWN_PLATFORM_ORGANIZATION', `Refused: no organization of this platform is ${binding.iss}`);
    }
    switch (verification.trustPolicy) {
      case 'PLATFORM_VERIFIED':
        if (!organization) {
          return refuse(
            'NOT_A_PLATFORM_ORGANIZATION',
            `Refused: ${binding.iss} is not an organization of this platform`,
          );
        }
        if (!organization.verifiedAt) {
          return refuse(
            'ORGANIZATION_NOT_VERIFIED',
            `Refused: ${organization.name} has not passed this platform's KYB`,
          );
        }
        return accept(
          'PLATFORM_VERIFIED_ORGANIZATION',
          `Admitted: ${organization.name} is an organization of this platform that passed KYB`,
        );
      case 'NAMED_ISSUERS': {
        const named = verification.trustedIssuers.find((trusted) => sameIssuer(trusted, binding.iss));
        return named
          ? accept('NAMED_ISSUER', `Admitted: ${named} is named by this verification (key ${keyOrigin(binding)})`)
          : refuse('NOT_A_NAMED_ISSUER', `Refused: ${binding.iss} is not one of the issuers this verification names`);
      }
      case 'TRUST_ANCHORS':
        if (binding.source === 'x5c' && anchor && anchor.origin !== 'PLATFORM_CA') {
          return accept(
            'TRUST_ANCHOR',
            `Admitted: certified by ${anchor.name}${anchor.origin === 'PLATFORM_LIST' ? ' (platform-wide trust anchor)' : ''}`,
          );
        }
        return refuse(
          'NO_TRUST_ANCHOR',
          `Refused: ${binding.iss} is not certified by one of the organization's trust anchors`,
        );
      case 'ANY_ISSUER':
        return accept('ANY_ISSUER', `Admitted: this verification accepts any issuer; key ${keyOrigin(binding)}`);
    }
  }

  /** A type belongs to its issuer: an organization's own type only from it; shared types from KYB-verified ones. */
  function typeBinding(
    vct: string | null,
    owner: TypeOwner,
    organizationId: string | undefined,
    verified: boolean,
    admission: IssuerAdmission,
    policy: schema.TrustPolicy,
  ): { passed: boolean; detail?: string } {
    if (!vct) return { passed: false, detail: 'The credential has no type (vct)' };
    if (owner.kind === 'ORGANIZATION') {
      return owner.organizationId === organizationId
        ? { passed: true }
        : { passed: false, detail: `The type ${vct} belongs to another organization of this platform` };
    }
    if (owner.kind === 'PLATFORM') {
      // Shared types (KYC, certificates) mean "checked by a KYB-verified organization of this platform",
      // unless the verifier itself named or anchored this issuer.
      if (organizationId && verified) return { passed: true };
      if (admission.admitted && (policy === 'NAMED_ISSUERS' || policy === 'TRUST_ANCHORS')) return { passed: true };
      return {
        passed: false,
        detail: `The type ${vct} is this platform's shared type: only organizations that passed KYB issue it`,
      };
    }
    return { passed: true };
  }

  return { forVerification, platformOrganizationId };
}

export type VerifierTrust = ReturnType<typeof verifierTrust>;

/** Whose a credential type is: one organization's own, the platform's shared types, or another issuer's. */
type TypeOwner = { kind: 'ORGANIZATION'; organizationId: string } | { kind: 'PLATFORM' } | { kind: 'OTHER' };

/** The platform's anchors: its CA, and every certificate of VERIFIER_TRUST_ANCHORS_FILE. */
export function platformAnchors(caPem: string, listPems: string[]): Anchor[] {
  return [
    { pem: caPem, origin: 'PLATFORM_CA', name: 'this platform’s CA' },
    ...listPems.map((pem) => ({ pem, origin: 'PLATFORM_LIST' as const, name: certificateSubject(pem) })),
  ];
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
