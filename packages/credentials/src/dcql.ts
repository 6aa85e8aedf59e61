/**
 * DCQL (OpenID4VP 1.0 §6): the query the platform's verifier sends. Only what this platform speaks:
 * `dc+sd-jwt` and `mso_mdoc` credentials, claims addressed by paths. Matching held credentials to a query is the
 * holder's (@cp/holder, on the `dcql` package).
 */

export const SD_JWT_VC_FORMAT = 'dc+sd-jwt';
export const MSO_MDOC_FORMAT = 'mso_mdoc';

export interface DcqlClaimsQuery {
  id?: string;
  path: (string | number | null)[];
  values?: (string | number | boolean)[];
}

export interface DcqlCredentialQuery {
  id: string;
  format: string;
  multiple?: boolean;
  /** `vct_values` for SD-JWT VC; `doctype_value` for mdoc (OpenID4VP 1.0 Appendix B.2.3). */
  meta?: { vct_values?: string[]; doctype_value?: string };
  claims?: DcqlClaimsQuery[];
  claim_sets?: string[][];
}

export interface DcqlQuery {
  credentials: DcqlCredentialQuery[];
  credential_sets?: { options: string[][]; required?: boolean }[];
}

/** One SD-JWT VC of a type, disclosing the named top-level claims (a name) or claims at paths. */
export function buildDcqlQuery(input: {
  id: string;
  vctValues: string[];
  claims: (string | DcqlClaimsQuery['path'])[];
}): DcqlQuery {
  return {
    credentials: [
      {
        id: input.id,
        format: SD_JWT_VC_FORMAT,
        meta: { vct_values: input.vctValues },
        ...(input.claims.length > 0
          ? { claims: input.claims.map((claim) => ({ path: typeof claim === 'string' ? [claim] : claim })) }
          : {}),
      },
    ],
  };
}

/** One mdoc of a doctype, disclosing the elements at `[namespace, elementIdentifier]` (OpenID4VP 1.0 B.2.4). */
export function buildMdocDcqlQuery(input: { id: string; docType: string; claims: [string, string][] }): DcqlQuery {
  return {
    credentials: [
      {
        id: input.id,
        format: MSO_MDOC_FORMAT,
        meta: { doctype_value: input.docType },
        ...(input.claims.length > 0 ? { claims: input.claims.map((path) => ({ path })) } : {}),
      },
    ],
  };
}
