import { type DcqlQuery, publicJwk, signerFromPrivateJwk } from '@cp/credentials';
import {
  answersRequest,
  createVpToken,
  type DcqlMatch,
  declinePresentation as declineWithHolder,
  type HolderKey,
  type MatchableCredential,
  matchDcqlQuery,
  type PresentationRequest,
  resolvePresentationRequest as resolveWithHolder,
  sendAuthorizationResponse,
  submitPresentation as submitWithHolder,
} from '@cp/holder';
import { errorMessage, WalletError } from './errors.ts';
import { walletErrorFrom, withHolder } from './holder.ts';
import { randomId } from './http.ts';
import { commonName } from './issuer-key.ts';
import type {
  CredentialInstance,
  PresentationCandidate,
  PresentationChoice,
  PresentationPlan,
  PresentationRecord,
  RemoteError,
  RequestedCredential,
  RequestedCredentialSet,
  ResolvedPresentationRequest,
  StoredCredential,
  WalletVault,
} from './types.ts';

/**
 * Presenting credentials (OpenID4VP 1.0). The protocol is @cp/holder's: the request (by value or by
 * `request_uri`, GET or POST), its signature checked for the client identifier prefix, DCQL validation
 * and matching, the SD-JWT VC presentations with a key-binding JWT and the mdoc DeviceResponses (@cp/holder/mdoc),
 * `direct_post` or `direct_post.jwt`.
 * What is the wallet's own: how the verifier is shown, the consent plan (which credentials answer which
 * query, the holder's choice), and the history of what was shared.
 */

export { answersRequest };

/** A resolved request with what the answer is built against (plain, cloneable data; opaque to the screens). */
export type ResolvedPresentationRequestWithSession = ResolvedPresentationRequest & { session: PresentationRequest };

/** The name shown for a verifier without `client_name` or certificate: its host, or the client identifier. */
function fallbackName(request: PresentationRequest): string {
  const identifier = request.clientId.slice(request.clientId.indexOf(':') + 1);
  if (request.clientIdPrefix !== 'redirect_uri') return identifier;
  try {
    return new URL(request.responseUri).hostname;
  } catch {
    return identifier;
  }
}

const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Fetches and checks a presentation request (@cp/holder: signature and client identifier, `vp_token` by
 * DCQL, a response URI and mode this wallet speaks), and says who the verifier is: its `client_name`,
 * else its certificate's common name, else its host or identifier.
 */
export async function resolvePresentationRequest(input: string): Promise<ResolvedPresentationRequest> {
  return resolvePresentationRequestWithSession(input);
}

/** resolvePresentationRequest, typed with the protocol session it carries. */
export async function resolvePresentationRequestWithSession(
  input: string,
): Promise<ResolvedPresentationRequestWithSession> {
  const request = await withHolder('REQUEST_INVALID', (context) => resolveWithHolder(input, context));
  const certificateSubject = request.certificate?.subject;
  const name =
    str(request.clientMetadata.client_name) ?? (certificateSubject ? commonName(certificateSubject) : undefined);
  const logoUri = str(request.clientMetadata.logo_uri);
  return {
    clientId: request.clientId,
    clientIdScheme: request.clientIdPrefix,
    verifier: {
      name: name || fallbackName(request),
      ...(logoUri ? { logoUri } : {}),
      ...(certificateSubject ? { certificateSubject } : {}),
    },
    dcql: request.dcql,
    nonce: request.nonce,
    ...(request.state ? { state: request.state } : {}),
    responseUri: request.responseUri,
    responseMode: request.responseMode,
    session: request,
  };
}

/**
 * The held credentials that answer each credential query (@cp/holder's DCQL matching): SD-JWT VCs by `vct` and
 * top-level claims, mdocs by doctype and `[namespace, element]` paths.
 */
function matchCredentials(
  dcql: DcqlQuery,
  credentials: StoredCredential[],
): Map<string, DcqlMatch<StoredCredential>[]> {
  const matchable = credentials.flatMap((stored): (MatchableCredential & { stored: StoredCredential })[] => {
    if (stored.format !== 'mso_mdoc') return [{ format: 'dc+sd-jwt', vct: stored.vct, claims: stored.claims, stored }];
    return stored.mdoc
      ? [{ format: 'mso_mdoc', docType: stored.mdoc.docType, namespaces: stored.mdoc.namespaces, stored }]
      : [];
  });
  try {
    const matches = matchDcqlQuery(dcql, matchable);
    return new Map(
      [...matches].map(([queryId, list]) => [queryId, list.map((m) => ({ ...m, credential: m.credential.stored }))]),
    );
  } catch (err) {
    throw walletErrorFrom(err, 'REQUEST_INVALID');
  }
}

/** A match as the consent screen and submitPresentation take it (an mdoc with the paths of its elements). */
const candidateOf = (m: DcqlMatch<StoredCredential>): PresentationCandidate => ({
  queryId: m.queryId,
  credential: m.credential,
  disclose: m.disclose,
  ...(m.credential.format === 'mso_mdoc' ? { paths: m.paths } : {}),
});

const sessionOf = (request: ResolvedPresentationRequest): PresentationRequest => {
  const session = (request as Partial<ResolvedPresentationRequestWithSession>).session;
  if (!session) throw new WalletError('REQUEST_INVALID', 'Resolve the request with resolvePresentationRequest first');
  return session;
};

const UNUSABLE = new Set(['REVOKED', 'EXPIRED', 'SUSPENDED']);

/** Whether a stored credential may be presented (not revoked, suspended or expired as far as known). */
export function isUsable(credential: StoredCredential, now = new Date()): boolean {
  if (UNUSABLE.has(credential.lastStatus)) return false;
  return !credential.expiresAt || new Date(credential.expiresAt).getTime() > now.getTime();
}

/**
 * The stored credentials that answer each DCQL credential query, with the claims to disclose; usable
 * ones first. A revoked or expired credential stays on the list (the screen warns): the holder decides,
 * and the verifier's own checks name the problem.
 */
export function findCandidates(
  request: ResolvedPresentationRequest,
  credentials: StoredCredential[],
): PresentationCandidate[] {
  const matches = matchCredentials(request.dcql, credentials);
  return [...matches.values()]
    .flat()
    .map(candidateOf)
    .sort((a, b) => Number(isUsable(b.credential)) - Number(isUsable(a.credential)));
}

const byUsability = (a: PresentationCandidate, b: PresentationCandidate) =>
  Number(isUsable(b.credential)) - Number(isUsable(a.credential));

/**
 * The request as the consent screen shows it (OpenID4VP 1.0 §6.4.2): each credential query with the
 * stored credentials that answer it (usable first), the credential sets with the options this wallet can
 * answer, and whether the required part can be answered at all (`missing` names what is not held).
 * Without `credential_sets`, every credential query is required: one set, one option.
 */
export function planPresentation(
  request: ResolvedPresentationRequest,
  credentials: StoredCredential[],
): PresentationPlan {
  const { dcql } = request;
  const matches = matchCredentials(dcql, credentials);
  const held = (id: string) => (matches.get(id)?.length ?? 0) > 0;
  const sets: RequestedCredentialSet[] = (
    dcql.credential_sets ?? [{ options: [dcql.credentials.map((c) => c.id)] }]
  ).map((set) => ({
    required: set.required !== false,
    options: set.options.map((queryIds) => ({ queryIds: [...queryIds], isSatisfiable: queryIds.every(held) })),
  }));
  // §6.4.2: with credential_sets, a query no option names is not asked for.
  const referenced = new Set(sets.flatMap((set) => set.options.flatMap((option) => option.queryIds)));
  const requested: RequestedCredential[] = dcql.credentials
    .filter((query) => referenced.has(query.id))
    .map((query) => ({
      queryId: query.id,
      candidates: (matches.get(query.id) ?? []).map(candidateOf).sort(byUsability),
      vctValues: query.meta?.vct_values ?? (query.meta?.doctype_value ? [query.meta.doctype_value] : []),
      claimNames: [
        ...new Set(
          (query.claims ?? [])
            // An mdoc's claims are `[namespace, element]`: named by element.
            .map((claim) => claim.path[query.format === 'mso_mdoc' ? 1 : 0])
            .filter((name): name is string => typeof name === 'string'),
        ),
      ],
      multiple: query.multiple === true,
    }));
  const unanswerable = sets.filter((set) => set.required && !set.options.some((option) => option.isSatisfiable));
  const missing = [
    ...new Set(
      unanswerable.flatMap((set) => set.options.flatMap((option) => option.queryIds.filter((id) => !held(id)))),
    ),
  ];
  return { credentials: requested, sets, canShare: unanswerable.length === 0, missing };
}

/**
 * The consent screen's starting point: for each required set the verifier's first option this wallet can
 * answer; optional sets left out (the holder opts in: least disclosure); the first candidate of each query.
 */
export function defaultChoice(plan: PresentationPlan): PresentationChoice {
  return {
    options: plan.sets.map((set) => {
      if (!set.required) return null;
      const index = set.options.findIndex((option) => option.isSatisfiable);
      return index >= 0 ? index : 0;
    }),
    credentials: {},
  };
}

/** The queries the choice answers, each with its chosen credential (in the request's order). */
export function chosenCandidates(plan: PresentationPlan, choice: PresentationChoice): PresentationCandidate[] {
  const answered = new Set<string>();
  plan.sets.forEach((set, index) => {
    const chosen = choice.options[index];
    const option = chosen === null || chosen === undefined ? undefined : set.options[chosen];
    for (const id of option?.queryIds ?? []) answered.add(id);
  });
  return plan.credentials
    .filter((requested) => answered.has(requested.queryId))
    .flatMap((requested) => {
      const candidate =
        requested.candidates.find((c) => c.credential.id === choice.credentials[requested.queryId]) ??
        requested.candidates[0];
      return candidate ? [candidate] : [];
    });
}

/** The instance of a credential a presentation uses (chooseInstance). */
export interface ChosenInstance {
  index: number;
  count: number;
  raw: string;
  /** Undefined: the vault's holder key. */
  key?: CredentialInstance['key'];
  /** Every instance had been presented before: this one may be linked to an earlier presentation. */
  reused: boolean;
}

/**
 * Which instance of a credential to present. A batch's instances are unlinkable only while each is shown once:
 * the first never presented (in issuance order); when all have been, the least recently used, and the history
 * says it was reused (the holder is not stopped: a credential that is still valid keeps working, and asking for a
 * new batch is the issuer's to offer). A credential of one instance is always that one, never "reused".
 */
export function chooseInstance(credential: StoredCredential): ChosenInstance {
  const instances = credential.instances ?? [];
  if (instances.length <= 1) return { index: 0, count: 1, raw: credential.raw, reused: false };
  const fresh = instances.findIndex((instance) => instance.usedAt === undefined);
  const index =
    fresh >= 0
      ? fresh
      : instances.reduce((oldest, instance, i) => (instance.usedAt! < instances[oldest]!.usedAt! ? i : oldest), 0);
  const instance = instances[index]!;
  return {
    index,
    count: instances.length,
    raw: instance.raw,
    ...(instance.key ? { key: instance.key } : {}),
    reused: fresh < 0,
  };
}

async function instanceKey(chosen: ChosenInstance, holder: HolderKey): Promise<HolderKey> {
  if (!chosen.key) return holder;
  return { signer: await signerFromPrivateJwk(chosen.key.privateJwk), publicJwk: publicJwk(chosen.key.publicJwk) };
}

/** Marks the presented instance used (read again first: the record may have changed since the plan was made). */
async function markUsed(vault: WalletVault, credentialId: string, chosen: ChosenInstance, at: string) {
  if (chosen.count <= 1) return;
  const current = await vault.getCredential(credentialId);
  const instances = current?.instances;
  if (!current || !instances?.[chosen.index]) return;
  await vault.saveCredential({
    ...current,
    instances: instances.map((instance, i) => (i === chosen.index ? { ...instance, usedAt: at } : instance)),
  });
}

function record(
  request: ResolvedPresentationRequest,
  outcome: PresentationRecord['outcome'],
  credential: StoredCredential | undefined,
  sharedClaims: string[],
  failure?: { detail?: string; refusal?: RemoteError },
  chosen?: ChosenInstance,
): PresentationRecord {
  return {
    id: randomId(),
    at: new Date().toISOString(),
    verifier: {
      name: request.verifier.name,
      clientId: request.clientId,
      ...(request.verifier.logoUri ? { logoUri: request.verifier.logoUri } : {}),
    },
    credentialId: credential?.id ?? '',
    credentialName: credential?.display.name ?? {},
    sharedClaims,
    outcome,
    ...(failure?.detail ? { detail: failure.detail } : {}),
    ...(failure?.refusal ? { refusal: failure.refusal } : {}),
    ...(chosen && chosen.count > 1
      ? { instance: { index: chosen.index, count: chosen.count, reused: chosen.reused } }
      : {}),
  };
}

/**
 * Presents the chosen credentials (@cp/holder), each with exactly its `disclose`, all bound to this verifier
 * (`aud` = client id) and request (`nonce`), in one `vp_token` keyed by credential query id (OpenID4VP 1.0
 * §8.1); records the outcome for each credential in the history (SENT, or ERROR and rethrows). One
 * candidate is the single-query case. A selection that does not answer the request is refused before
 * anything is sent or recorded.
 */
export async function submitPresentation(
  request: ResolvedPresentationRequest,
  selection: PresentationCandidate | readonly PresentationCandidate[],
  vault: WalletVault,
): Promise<{ redirectUri?: string }> {
  const candidates: PresentationCandidate[] = 'queryId' in selection ? [selection] : [...selection];
  const session = sessionOf(request);
  if (
    !answersRequest(
      request.dcql,
      candidates.map((c) => c.queryId),
    )
  ) {
    throw new WalletError('NO_MATCHING_CREDENTIAL', 'The chosen credentials do not answer the request');
  }
  const key = vault.holder();
  // A fresh instance of each batch credential (chooseInstance), presented with the key it is bound to.
  const chosen = candidates.map((c) => chooseInstance(c.credential));
  const selections = await Promise.all(
    candidates.map(async (c, i) => ({
      queryId: c.queryId,
      credential: chosen[i]!.raw,
      disclose: c.disclose,
      key: await instanceKey(chosen[i]!, key),
    })),
  );
  // Marked used whatever the outcome: a response that failed may still have reached the verifier.
  const markAll = async (at: string) => {
    for (const [i, candidate] of candidates.entries()) await markUsed(vault, candidate.credential.id, chosen[i]!, at);
  };
  const isMdoc = (c: PresentationCandidate) => c.credential.format === 'mso_mdoc';
  try {
    const result = await withHolder('VERIFIER_ERROR', async (context) => {
      if (!candidates.some(isMdoc)) return submitWithHolder(session, selections, { key }, context);
      // An mdoc answers its query with a DeviceResponse (core/mdoc.ts, loaded only now); any SD-JWT VC beside it
      // with its key-binding JWT, all in one vp_token (OpenID4VP 1.0 §8.1).
      const { mdocDeviceResponse } = await import('./mdoc.ts');
      const vpToken = await createVpToken(
        session,
        selections.filter((_, i) => !isMdoc(candidates[i]!)),
        key,
      );
      // Each mdoc's chosen instance, device-signed by the key its MSO binds (a batch instance's own).
      for (const [i, candidate] of candidates.entries()) {
        if (isMdoc(candidate))
          vpToken[candidate.queryId] = [await mdocDeviceResponse(session, candidate, key, chosen[i])];
      }
      return sendAuthorizationResponse(session, { vp_token: vpToken }, {}, context);
    });
    await markAll(new Date().toISOString());
    for (const [i, candidate] of candidates.entries()) {
      await vault.addPresentation(
        record(request, 'SENT', candidate.credential, candidate.disclose, undefined, chosen[i]),
      );
    }
    return result;
  } catch (err) {
    const error = walletErrorFrom(err, 'VERIFIER_ERROR');
    const detail = error.detail ? `${error.message} (${error.detail})` : errorMessage(error);
    const refusal = error.code === 'VERIFIER_ERROR' ? error.remote : undefined;
    await markAll(new Date().toISOString());
    for (const [i, candidate] of candidates.entries()) {
      await vault.addPresentation(
        record(
          request,
          'ERROR',
          candidate.credential,
          candidate.disclose,
          { detail, ...(refusal ? { refusal } : {}) },
          chosen[i],
        ),
      );
    }
    throw error;
  }
}

/** Tells the verifier the holder declined (`access_denied`, @cp/holder) and records it; sharing nothing. */
export async function declinePresentation(
  request: ResolvedPresentationRequest,
  vault: WalletVault,
  credential?: StoredCredential,
): Promise<{ redirectUri?: string }> {
  const session = sessionOf(request);
  await vault.addPresentation(record(request, 'DECLINED', credential, []));
  try {
    return await withHolder('VERIFIER_ERROR', (context) => declineWithHolder(session, context));
  } catch (err) {
    // The verifier refusing the error answer changes nothing for the holder; no network is worth telling.
    if (err instanceof WalletError && err.code === 'NETWORK') throw err;
    return {};
  }
}
