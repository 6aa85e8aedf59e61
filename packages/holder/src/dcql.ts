import type { DcqlQuery } from '@cp/credentials';
import { DcqlQuery as Dcql } from 'dcql';
import { errorMessage, HolderError } from './errors.ts';

/**
 * DCQL (OpenID4VP 1.0 §6) on the `dcql` package: a verifier's query parsed and validated (unique query
 * ids, credential sets and claim sets naming only what exists), and the holder's credentials matched to
 * it. This holder speaks SD-JWT VC (`dc+sd-jwt`, and the draft `vc+sd-jwt`), disclosing top-level claims, and
 * ISO mdoc (`mso_mdoc`), disclosing elements by `[namespace, element]`.
 */

/** Bounds on what a verifier may ask at once (a consent screen past this is no longer readable anyway). */
const MAX_CREDENTIAL_QUERIES = 16;
const MAX_CREDENTIAL_SETS = 16;
const MAX_OPTIONS = 16;

const invalid = (message: string): never => {
  throw new HolderError('REQUEST_INVALID', message);
};

/** Parses and validates a DCQL query; REQUEST_INVALID names what is wrong. */
export function validateDcqlQuery(value: unknown): DcqlQuery {
  if (value === undefined || value === null) return invalid('The request has no DCQL query');
  let parsed: ReturnType<typeof Dcql.parse>;
  try {
    parsed = Dcql.parse(value as Dcql.Input);
    Dcql.validate(parsed);
  } catch (err) {
    return invalid(`The DCQL query is not valid: ${errorMessage(err)}`.slice(0, 500));
  }
  if (parsed.credentials.length > MAX_CREDENTIAL_QUERIES) invalid('The DCQL query asks for too many credentials');
  const sets = parsed.credential_sets ?? [];
  if (sets.length > MAX_CREDENTIAL_SETS || sets.some((set) => set.options.length > MAX_OPTIONS)) {
    invalid('The DCQL query has too many credential sets or options');
  }
  // §6.2: each option is a non-empty list of distinct credential query ids (the package admits an empty one).
  if (sets.some((set) => set.options.some((option) => option.length === 0 || new Set(option).size !== option.length))) {
    invalid('The DCQL credential_sets are not valid');
  }
  // The query as sent (the package's parse adds defaults, e.g. `required: true`, that the verifier did not write).
  return value as DcqlQuery;
}

/** A credential as far as matching needs: its type and every claim it could disclose. */
export type MatchableCredential =
  /** An SD-JWT VC (`format` absent or `dc+sd-jwt`): its `vct` and claims. */
  | { format?: 'dc+sd-jwt'; vct: string; claims: Record<string, unknown> }
  /** An mdoc: its doctype and elements by namespace (ParsedMdoc). */
  | { format: 'mso_mdoc'; docType: string; namespaces: Record<string, Record<string, unknown>> };

export interface DcqlMatch<T> {
  queryId: string;
  credential: T;
  /**
   * What to disclose for this query, from the first claim set the credential satisfies: top-level claim
   * names for an SD-JWT VC; element identifiers for an mdoc.
   */
  disclose: string[];
  /** The claims paths to disclose: `[namespace, element]` for an mdoc (buildMdocDeviceResponse). */
  paths: (string | number | null)[][];
}

const SD_JWT_FORMATS = new Set(['dc+sd-jwt', 'vc+sd-jwt']);

/**
 * For each credential query, the credentials that satisfy it (§6.4.1: format, `vct_values` or
 * `doctype_value`, every claim of the first satisfiable claim set, with an allowed value where `values` is
 * given), in the given order. Invalid queries are refused (REQUEST_INVALID): a claim set naming unknown
 * claims never matches anything.
 */
export function matchDcqlQuery<T extends MatchableCredential>(
  query: DcqlQuery,
  credentials: readonly T[],
): Map<string, DcqlMatch<T>[]> {
  validateDcqlQuery(query);
  // The draft format name matches the same credentials.
  const normalized = {
    ...query,
    credentials: query.credentials.map((c) => (SD_JWT_FORMATS.has(c.format) ? { ...c, format: 'dc+sd-jwt' } : c)),
  };
  const parsed = Dcql.parse(normalized as Dcql.Input);
  const outcome = Dcql.query(
    parsed,
    credentials.map((credential) =>
      credential.format === 'mso_mdoc'
        ? {
            credential_format: 'mso_mdoc' as const,
            doctype: credential.docType,
            namespaces: credential.namespaces,
            cryptographic_holder_binding: true,
          }
        : {
            credential_format: 'dc+sd-jwt' as const,
            vct: credential.vct,
            claims: credential.claims as never,
            cryptographic_holder_binding: true,
          },
    ),
  );
  const result = new Map<string, DcqlMatch<T>[]>();
  for (const credentialQuery of query.credentials) {
    const match = outcome.credential_matches[credentialQuery.id];
    const matches: DcqlMatch<T>[] = [];
    for (const valid of match?.success ? match.valid_credentials : []) {
      const credential = credentials[valid.input_credential_index];
      const claimSet = valid.claims.valid_claim_sets[0];
      if (!credential || !claimSet) continue;
      const paths = (claimSet.valid_claim_indexes ?? [])
        .map((index) => credentialQuery.claims?.[index]?.path)
        .filter((path): path is (string | number | null)[] => Array.isArray(path));
      const names = paths.map((path) => (credential.format === 'mso_mdoc' ? path[1] : path[0]));
      const disclose = [...new Set(names.filter((name): name is string => typeof name === 'string'))];
      matches.push({ queryId: credentialQuery.id, credential, disclose, paths });
    }
    result.set(credentialQuery.id, matches);
  }
  return result;
}

/**
 * Whether presentations for exactly these query ids answer the query (§6.4.2): without `credential_sets`
 * every query; with them one option of each required set, one or none of each optional one, and nothing
 * else (two alternatives of one set would disclose more than asked).
 */
export function answersRequest(dcql: DcqlQuery, queryIds: readonly string[]): boolean {
  const chosen = new Set(queryIds);
  const known = new Set(dcql.credentials.map((c) => c.id));
  if (chosen.size !== queryIds.length || chosen.size === 0 || ![...chosen].every((id) => known.has(id))) return false;
  const sets = dcql.credential_sets;
  if (!sets) return chosen.size === known.size;
  // Depth-first over the sets, only through options inside the selection; memoized on (set, covered ids).
  const seen = new Set<string>();
  const search = (index: number, covered: ReadonlySet<string>): boolean => {
    const set = sets[index];
    if (!set) return covered.size === chosen.size;
    const key = `${index}|${[...covered].sort().join(',')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    for (const option of set.options) {
      if (option.every((id) => chosen.has(id)) && search(index + 1, new Set([...covered, ...option]))) return true;
    }
    return set.required === false && search(index + 1, covered);
  };
  return search(0, new Set());
}
