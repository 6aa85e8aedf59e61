import { z } from 'zod';

/**
 * An organization's trusted wallet providers: its OpenID4VCI issuer accepts a wallet attestation (OAuth 2.0
 * Attestation-Based Client Authentication) or a key attestation (OpenID4VCI 1.0 Appendix D) when the
 * attestation's signing certificate is one of these certificates or chains to one of them. Effective for
 * the next request.
 */
export const WALLET_PROVIDERS_MAX = 50;
export const WALLET_PROVIDER_NAME_MAX = 120;
export const WALLET_PROVIDER_PEM_MAX = 20_000;

export const zCreateWalletProviderRequest = z.strictObject({
  name: z.string().trim().min(1).max(WALLET_PROVIDER_NAME_MAX),
  /**
   * The provider's CA certificate (basicConstraints cA, keyCertSign when key usage is present), or its
   * attestation signing certificate itself (digitalSignature when key usage is present); valid now.
   */
  certificate_pem: z
    .string()
    .trim()
    .max(WALLET_PROVIDER_PEM_MAX)
    .regex(/^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----$/, 'Must be one PEM certificate'),
});
export type CreateWalletProviderRequest = z.infer<typeof zCreateWalletProviderRequest>;

export const zWalletProvider = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The certificate's subject DN, SHA-256 fingerprint (hex) and expiry. */
  subject: z.string(),
  fingerprint: z.string(),
  not_after: z.iso.datetime({ offset: true }),
  /** CA: attestations signed by certificates it issued; SIGNING: attestations signed by this certificate. */
  kind: z.enum(['CA', 'SIGNING']),
  certificate_pem: z.string(),
  created_at: z.iso.datetime({ offset: true }),
});
export type WalletProvider = z.infer<typeof zWalletProvider>;

export const zWalletProviderList = z.object({ results: z.array(zWalletProvider), total: z.number().int() });
export type WalletProviderList = z.infer<typeof zWalletProviderList>;

/** Which wallet provider vouched for the holder's wallet (token step) and for its key (credential step). */
export const zCredentialWalletAttestation = z.object({
  provider_id: z.uuid().nullable(),
  provider_name: z.string(),
  client_id: z.string(),
  wallet_name: z.string().nullable(),
  certificate_subject: z.string(),
  verified_at: z.iso.datetime({ offset: true }),
});
export const zCredentialKeyAttestation = z.object({
  provider_id: z.uuid().nullable(),
  provider_name: z.string(),
  certificate_subject: z.string(),
  key_storage: z.array(z.string()).nullable(),
  user_authentication: z.array(z.string()).nullable(),
  verified_at: z.iso.datetime({ offset: true }),
});
