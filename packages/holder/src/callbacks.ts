import {
  base64url,
  type CertificationPath,
  cachedPathValidator,
  describeLeaf,
  fromBase64url,
  generateEs256KeyPair,
  type JwsSigner,
  resolveDidKeyReference,
  sha256,
  signerFromPrivateJwk,
  verifyJwtSignature,
  x5cLeafJwk,
} from '@cp/credentials';
import type { CallbackContext, Jwk, JwtSigner } from '@openid4vc/oauth2';
import { getGlobalConfig, setGlobalConfig } from '@openid4vc/utils';
import { CompactEncrypt, importJWK, type JWK } from 'jose';
import { errorMessage, HolderError, type HolderErrorCode } from './errors.ts';

/**
 * The cryptography and HTTP the @openid4vc clients delegate, done with WebCrypto and jose only, so that
 * the same code runs in the wallet (a browser) and in Node (tests, benchmarks).
 */

/** The holder's key: a signer (WebCrypto, a key store…) and its public JWK, bound into credentials as `cnf.jwk`. */
export interface HolderKey {
  signer: JwsSigner;
  publicJwk: JsonWebKey;
}

/** A fresh P-256 holder key (tests, benchmarks; the wallet keeps its own in the vault). */
export async function createHolderKey(): Promise<HolderKey> {
  const { privateJwk, publicJwk } = await generateEs256KeyPair();
  return { signer: await signerFromPrivateJwk(privateJwk), publicJwk };
}

export type Fetch = typeof fetch;

/**
 * Whether plain http URLs are followed (offers, metadata, endpoints, request and response URIs): the
 * @openid4vc clients' own switch, which this library's checks follow too. Off by default; on only for
 * development and tests, where the other party runs on http://localhost.
 */
export function allowHttpUrls(allow: boolean): void {
  setGlobalConfig({ ...getGlobalConfig(), allowInsecureUrls: allow });
}

/** An https URL, or an http one while allowHttpUrls is on. */
export function isFetchableUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || (protocol === 'http:' && getGlobalConfig().allowInsecureUrls);
  } catch {
    return false;
  }
}

/** Options every protocol call takes. */
export interface HolderContext {
  /** HTTP (default: the global fetch). */
  fetch?: Fetch;
  /** Hosts where a `did:web` may be resolved over plain http (development). */
  allowHttpDid?: (host: string) => boolean;
}

/** fetch, with an unreachable server turned into the given error (the libraries would call it "unknown"). */
export function guardedFetch(fetchImpl: Fetch | undefined, unreachable: HolderErrorCode): Fetch {
  const impl = fetchImpl ?? ((...args: Parameters<Fetch>) => globalThis.fetch(...args));
  return (async (input: Parameters<Fetch>[0], init?: Parameters<Fetch>[1]) => {
    try {
      return await impl(input, init);
    } catch (err) {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      throw new HolderError(unreachable, `${url} cannot be reached: ${errorMessage(err)}`);
    }
  }) as Fetch;
}

/** The HolderError somewhere in a library error's cause chain (a callback's own verdict), if any. */
export function holderErrorIn(err: unknown): HolderError | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof HolderError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const hash: CallbackContext['hash'] = async (data, alg) => {
  if (alg !== 'sha-256') throw new Error(`Unsupported hash ${alg}`);
  return sha256(data);
};

const generateRandom: CallbackContext['generateRandom'] = (length) => crypto.getRandomValues(new Uint8Array(length));

/** Signs with the holder key: the key proof of OpenID4VCI (the only JWT the library asks the holder to sign). */
function signJwtWith(key: HolderKey | undefined): CallbackContext['signJwt'] {
  return async (signer, { header, payload }) => {
    if (!key) throw new Error('No holder key to sign with');
    if (signer.method !== 'jwk') throw new Error(`The holder signs with its JWK, not ${signer.method}`);
    const signingInput = `${base64url(JSON.stringify({ ...header, alg: key.signer.alg }))}.${base64url(JSON.stringify(payload))}`;
    return { jwt: `${signingInput}.${await key.signer.sign(signingInput)}`, signerJwk: key.publicJwk as Jwk };
  };
}

/** ECDH-ES to the verifier's key (OpenID4VP 1.0 §8.3), with the `apu`/`apv` the library chose. */
const encryptJwe: CallbackContext['encryptJwe'] = async (encryptor, data) => {
  const jwk = encryptor.publicJwk;
  const jwe = new CompactEncrypt(Uint8Array.from(new TextEncoder().encode(data))).setProtectedHeader({
    alg: encryptor.alg,
    enc: encryptor.enc,
    ...(typeof jwk.kid === 'string' ? { kid: jwk.kid } : {}),
  });
  if (encryptor.apu || encryptor.apv) {
    jwe.setKeyManagementParameters({
      ...(encryptor.apu ? { apu: fromBase64url(encryptor.apu) } : {}),
      ...(encryptor.apv ? { apv: fromBase64url(encryptor.apv) } : {}),
    });
  }
  const { d: _d, ...publicPart } = jwk as JWK;
  return { jwe: await jwe.encrypt(await importJWK(publicPart, encryptor.alg)), encryptionJwk: jwk };
};

/** Requests this holder reads are signed, not encrypted (it publishes no encryption key). */
const decryptJwe: CallbackContext['decryptJwe'] = () => ({ decrypted: false });

/**
 * Request chains validated lately: a wallet meets the same verifier's chain request after request, and validating
 * one (parsing, path building, signatures) costs more than the rest of reading the request. A kept answer holds
 * only while its certificates are valid (cachedPathValidator).
 */
const requestChains = cachedPathValidator({ maxAgeMs: 60_000, max: 64 });

/** A verifier's request certificate chain: it must hold together up to its own last certificate. */
export async function consistentChain(
  x5c: unknown,
): Promise<Pick<CertificationPath, 'leafJwk' | 'subject' | 'uris' | 'dnsNames'>> {
  if (!Array.isArray(x5c) || x5c.length === 0 || !x5c.every((c) => typeof c === 'string')) {
    throw new Error('x5c is not an array of certificates');
  }
  const chain = x5c as string[];
  if (chain.length > 1) {
    const last = chain[chain.length - 1]!;
    return requestChains(chain.slice(0, -1), [`-----BEGIN CERTIFICATE-----\n${last}\n-----END CERTIFICATE-----`]);
  }
  const leaf = describeLeaf(chain[0]!);
  const now = new Date();
  if (leaf.notBefore > now || leaf.notAfter < now) throw new Error('The certificate is expired or not yet valid');
  return { ...leaf, leafJwk: await x5cLeafJwk(chain) };
}

/**
 * Checks a request object's signature by what the client identifier prefix admits (the library picks the
 * signer method): the `x5c` leaf of a chain that holds together, or the key a DID URL names. A chain
 * that does not hold or a DID that cannot be resolved is REQUEST_UNTRUSTED (thrown through the library);
 * a signature by another key is `verified: false`.
 */
function verifyRequestJwt(context: HolderContext): CallbackContext['verifyJwt'] {
  return async (signer: JwtSigner, { compact }) => {
    let jwk: JsonWebKey;
    if (signer.method === 'x5c') {
      try {
        jwk = (await consistentChain(signer.x5c)).leafJwk;
      } catch (err) {
        throw new HolderError('REQUEST_UNTRUSTED', `The request certificate chain is not valid: ${errorMessage(err)}`);
      }
    } else if (signer.method === 'did') {
      const fetchJson = async (url: string) => {
        const response = await guardedFetch(context.fetch, 'NETWORK')(url, { headers: { accept: 'application/json' } });
        if (!response.ok) throw new Error(`${url} answered ${response.status}`);
        return response.json() as Promise<unknown>;
      };
      try {
        jwk = await resolveDidKeyReference(
          signer.didUrl,
          fetchJson,
          context.allowHttpDid ? { allowHttp: context.allowHttpDid } : {},
        );
      } catch (err) {
        throw new HolderError('REQUEST_UNTRUSTED', `The client_id DID cannot be resolved: ${errorMessage(err)}`);
      }
    } else {
      throw new HolderError('REQUEST_UNTRUSTED', `Requests signed by ${signer.method} are not supported`);
    }
    return (await verifyJwtSignature(compact, jwk))
      ? { verified: true as const, signerJwk: jwk as Jwk }
      : { verified: false as const, signerJwk: jwk as Jwk };
  };
}

/** DNS and URI names of a certificate's SAN (read synchronously, as the library asks). */
function getX509CertificateMetadata(certificate: string) {
  const leaf = describeLeaf(certificate);
  return { sanDnsNames: leaf.dnsNames, sanUriNames: leaf.uris };
}

/** Every callback the @openid4vc clients take, for one operation. */
export function holderCallbacks(
  context: HolderContext,
  options: { key?: HolderKey; unreachable: HolderErrorCode },
): Omit<CallbackContext, 'clientAuthentication'> & { fetch: Fetch } {
  return {
    fetch: guardedFetch(context.fetch, options.unreachable),
    hash,
    generateRandom,
    signJwt: signJwtWith(options.key),
    verifyJwt: verifyRequestJwt(context),
    encryptJwe,
    decryptJwe,
    getX509CertificateMetadata,
  };
}
