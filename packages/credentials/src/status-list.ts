import { StatusList } from '@sd-jwt/jwt-status-list';
import { decodeJwt, type JwsSigner, signJwt } from './jws.ts';

/** IETF Token Status List: one bit per credential (0 valid, 1 revoked). */
export const STATUS_LIST_TYP = 'statuslist+jwt';
export const STATUS_VALID = 0;
export const STATUS_INVALID = 1;

/** The compressed, base64url `lst` for a list of `size` entries with the given indexes set to 1. */
export function encodeStatusList(size: number, revokedIndexes: Iterable<number>): string {
  const statuses = new Array<number>(size).fill(STATUS_VALID);
  for (const index of revokedIndexes) {
    if (!Number.isInteger(index) || index < 0 || index >= size) throw new RangeError(`Index ${index} outside the list`);
    statuses[index] = STATUS_INVALID;
  }
  return new StatusList(statuses, 1).compressStatusList();
}

/**
 * Decoded lists by their compressed form: a verifier reads the same list for many presentations, and
 * inflating and expanding it costs far more than reading one entry. Bounded; oldest out first.
 */
const decodedLists = new Map<string, StatusList>();
const DECODED_LISTS_MAX = 16;

export function readStatus(lst: string, index: number, bits: 1 | 2 | 4 | 8 = 1): number {
  const cacheKey = `${bits}:${lst}`;
  let list = decodedLists.get(cacheKey);
  if (!list) {
    list = StatusList.decompressStatusList(lst, bits);
    decodedLists.set(cacheKey, list);
    if (decodedLists.size > DECODED_LISTS_MAX) decodedLists.delete(decodedLists.keys().next().value as string);
  }
  return list.getStatus(index);
}

export interface StatusListTokenInput {
  signer: JwsSigner;
  header: { kid?: string; x5c?: string[] };
  /** The URL the list is served at; it is the token's `sub` (Token Status List §5.1). */
  uri: string;
  lst: string;
  issuedAt?: number;
  /** Seconds a relying party may cache the list. */
  ttl: number;
  expiresAt?: number;
}

export function signStatusListToken(input: StatusListTokenInput): Promise<string> {
  return signJwt(
    input.signer,
    { typ: STATUS_LIST_TYP, ...input.header },
    {
      sub: input.uri,
      iat: input.issuedAt ?? Math.floor(Date.now() / 1000),
      ...(input.expiresAt ? { exp: input.expiresAt } : {}),
      ttl: input.ttl,
      status_list: { bits: 1, lst: input.lst },
    },
  );
}

/** Reads the status at `index` from a status list token (signature checked by the caller). */
export function statusFromToken(token: string, index: number): { status: number; sub: unknown; typ: unknown } {
  const { header, payload } = decodeJwt<{ sub?: string; status_list?: { bits?: number; lst?: string } }>(token);
  const list = payload.status_list;
  if (!list?.lst || ![1, 2, 4, 8].includes(list.bits ?? 0)) throw new Error('Not a status list token');
  return { status: readStatus(list.lst, index, list.bits as 1 | 2 | 4 | 8), sub: payload.sub, typ: header.typ };
}
