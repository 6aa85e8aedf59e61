import { generateEs256KeyPair, signerFromPrivateJwk } from '@cp/credentials';
import type { HolderKey } from '@cp/holder';
import { WalletError } from './errors.ts';
import type { CredentialInstance } from './types.ts';

/**
 * A batch (OpenID4VCI 1.0 §8.2) as the wallet keeps it, whatever the format: the first credential on the vault's
 * key, each further instance on a key made for it alone (private half kept with the instance), each verified as
 * the first was and holding the same credential. One that is not is refused with the whole batch (an issuer that
 * mixes credentials into a batch is not one to keep any of).
 */

export type KeyPair = { privateJwk: JsonWebKey; publicJwk: JsonWebKey };

/** `createKey` for @cp/holder's batch requests, and the pair of every key it made. */
export function batchKeyMaker() {
  const keys = new Map<HolderKey, KeyPair>();
  const createKey = async (): Promise<HolderKey> => {
    const pair = await generateEs256KeyPair();
    const key: HolderKey = { signer: await signerFromPrivateJwk(pair.privateJwk), publicJwk: pair.publicJwk };
    keys.set(key, pair);
    return key;
  };
  return { keys, createKey };
}

/** What verifying one further instance found: whether it is the first's credential, and its status entry. */
export interface VerifiedInstance {
  sameAsFirst: boolean;
  statusReference?: { uri: string; idx: number };
}

/** The further instances, each bound to a key of `keys` and checked by `verify` against that key. */
export async function batchInstances(
  received: { credential: string; key: HolderKey }[],
  keys: Map<HolderKey, KeyPair>,
  verify: (credential: string, pair: KeyPair) => Promise<VerifiedInstance>,
): Promise<CredentialInstance[]> {
  const instances: CredentialInstance[] = [];
  for (const { credential, key } of received) {
    const pair = keys.get(key);
    if (!pair)
      throw new WalletError('CREDENTIAL_INVALID', 'A batch instance is bound to a key this wallet did not make');
    const { sameAsFirst, statusReference } = await verify(credential, pair);
    if (!sameAsFirst) {
      throw new WalletError('CREDENTIAL_INVALID', 'The instances of the batch are not the same credential');
    }
    instances.push({ raw: credential, key: pair, ...(statusReference ? { statusReference } : {}) });
  }
  return instances;
}
