import type { ResourceFetcher } from '../../lib/resource-fetcher.ts';
import * as issuerService from '../issuer/issuer.service.ts';
import * as keysService from '../organization-keys/organization-keys.service.ts';

const OWN_STATUS_LIST = /^\/orgs\/([0-9a-f-]{36})\/status-list$/;
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
