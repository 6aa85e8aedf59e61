/**
 * DCQL (OpenID4VP 1.0 §6): the verifier's query, and the wallet's matching of stored credentials to it.
 * Only what this platform speaks: `dc+sd-jwt` credentials, claims addressed by top-level paths.
 */

export const SD_JWT_VC_FORMAT = 'dc+sd-jwt';

export interface DcqlClaimsQuery {
  id?: string;
  path: (string | number | null)[];
  values?: (string | number | boolean)[];
}

export interface DcqlCredentialQuery {
  id: string;
  format: string;
  multiple?: boolean;
  meta?: { vct_values?: string[] };
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

/** A credential a wallet holds, as far as matching needs: its `vct` and every claim it could disclose. */
export interface MatchableCredential {
  vct: string;
  claims: Record<string, unknown>;
}

export interface DcqlMatch<T> {
  queryId: string;
  credential: T;
  /** Top-level claim names to disclose for this query. */
  disclose: string[];
}

const pathValue = (claims: Record<string, unknown>, path: DcqlClaimsQuery['path']): unknown => {
  let value: unknown = claims;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    if (segment === null) return Array.isArray(value) ? value : undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
};

function claimMatches(credential: MatchableCredential, claim: DcqlClaimsQuery): boolean {
  const value = pathValue(credential.claims, claim.path);
  if (value === undefined) return false;
  return !claim.values || claim.values.some((expected) => expected === value);
}

/**
 * For each credential query, the stored credentials that satisfy it (format, `vct`, every requested
 * claim present with an allowed value, or one of the `claim_sets`). Answers null for a query nothing
 * satisfies; the caller decides with `credential_sets` whether the request can be answered.
 */
export function matchDcqlQuery<T extends MatchableCredential>(
  query: DcqlQuery,
  credentials: readonly T[],
): Map<string, DcqlMatch<T>[]> {
  const result = new Map<string, DcqlMatch<T>[]>();
  for (const credentialQuery of query.credentials) {
    const matches: DcqlMatch<T>[] = [];
    if (credentialQuery.format === SD_JWT_VC_FORMAT || credentialQuery.format === 'vc+sd-jwt') {
      for (const credential of credentials) {
        const vctValues = credentialQuery.meta?.vct_values;
        if (vctValues && !vctValues.includes(credential.vct)) continue;
        const claims = credentialQuery.claims ?? [];
        const byId = new Map(claims.map((c) => [c.id, c]));
        const sets = credentialQuery.claim_sets?.map((set) => set.map((id) => byId.get(id)).filter(Boolean)) ?? [
          claims,
        ];
        const chosen = sets.find((set) => set.every((c) => c && claimMatches(credential, c)));
        if (!chosen) continue;
        const disclose = [
          ...new Set(chosen.map((c) => c?.path[0]).filter((name): name is string => typeof name === 'string')),
        ];
        matches.push({ queryId: credentialQuery.id, credential, disclose });
      }
    }
    result.set(credentialQuery.id, matches);
  }
  return result;
}

/** Whether the matches answer the query: every required credential set (or every query) has a match. */
export function dcqlSatisfied(query: DcqlQuery, matches: Map<string, unknown[]>): boolean {
  const has = (id: string) => (matches.get(id)?.length ?? 0) > 0;
  if (!query.credential_sets) return query.credentials.every((c) => has(c.id));
  return query.credential_sets
    .filter((set) => set.required !== false)
    .every((set) => set.options.some((option) => option.every(has)));
}
