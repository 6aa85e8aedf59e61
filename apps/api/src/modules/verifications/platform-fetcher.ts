import type { ResourceFetcher } from '../../lib/resource-fetcher.ts';
import * as issuerService from '../issuer/issuer.service.ts';
import * as keysService from '../organization-keys/organization-keys.service.ts';

const OWN_STATUS_LIST = /^\/orgs\/([0-9a-f-]{36})\/status-list$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const OWN_STATUS_LISTS = /^\/orgs\/([0-9a-f-]{36})\/status-lists\/([0-9a-f-]{36})$/;
const OWN_DID_DOCUMENT = /^\/orgs\/([0-9a-f-]{36})\/did\.json$/;
const OWN_ISSUER_METADATA = /^\/\.well-known\/jwt-vc-issuer\/orgs\/([0-9a-f-]{36})$/;

export interface PlatformFetcherDeps {
  issuer: issuerService.IssuerDeps;
  keys: keysService.KeyDeps;
  publicUrl: string;
  /** Everything that is not one of this platform's own documents. */
  http: ResourceFetcher;
}

/**
 * The verifier's fetcher: this platform's own documents (status lists, did:web documents, JWT VC Issuer
 * Metadata) are read from the database, the same ones its routes serve, without a round trip through the
 * load balancer; anything else over HTTP.
 */
export function platformFetcher(deps: PlatformFetcherDeps): ResourceFetcher {
  const origin = new URL(deps.publicUrl).origin;
  return {
    async text(url, accept) {
      const parsed = new URL(url);
      if (parsed.origin === origin && !parsed.search) {
        const statusList = OWN_STATUS_LIST.exec(parsed.pathname)?.[1];
        if (statusList) return issuerService.statusListToken(deps.issuer, statusList);
        const [, organizationId, statusListId] = OWN_STATUS_LISTS.exec(parsed.pathname) ?? [];
        if (organizationId && statusListId) {
          return issuerService.statusListToken(deps.issuer, organizationId, statusListId);
        }
        const didDocument = OWN_DID_DOCUMENT.exec(parsed.pathname)?.[1];
        if (didDocument) return JSON.stringify(await keysService.didDocument(deps.keys, didDocument));
        const metadata = OWN_ISSUER_METADATA.exec(parsed.pathname)?.[1];
        if (metadata) return JSON.stringify(await keysService.issuerMetadata(deps.keys, metadata));
      }
      return deps.http.text(url, accept);
    },
  };
}

/** A status list of this platform, named by its URL: the organization's, and which of its lists (none: the first). */
export interface OwnStatusList {
  organizationId: string;
  statusListId?: string;
}

/**
 * The platform's own status lists for the verifier: which list a status URI names (only well-formed ids, so a
 * statement can take them), and its token from a list row already read (statusListToken, as the fetcher serves it).
 */
export function platformStatusLists(deps: { issuer: issuerService.IssuerDeps; publicUrl: string }) {
  const origin = new URL(deps.publicUrl).origin;
  return {
    ref(url: string): OwnStatusList | undefined {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return undefined;
      }
      if (parsed.origin !== origin || parsed.search) return undefined;
      const first = OWN_STATUS_LIST.exec(parsed.pathname)?.[1];
      if (first) return UUID.test(first) ? { organizationId: first } : undefined;
      const [, organizationId, statusListId] = OWN_STATUS_LISTS.exec(parsed.pathname) ?? [];
      return organizationId && statusListId && UUID.test(organizationId) && UUID.test(statusListId)
        ? { organizationId, statusListId }
        : undefined;
    },
    token(ref: OwnStatusList, list: Parameters<typeof issuerService.statusListToken>[3]) {
      return issuerService.statusListToken(deps.issuer, ref.organizationId, ref.statusListId, list);
    },
  };
}
export type PlatformStatusLists = ReturnType<typeof platformStatusLists>;
