import { createRemoteJWKSet } from 'jose';
import * as oidc from 'openid-client';
import { AppError } from '../../errors/app-error.ts';
import type { Logger } from '../../lib/logger.ts';

export interface OidcClientOptions {
  issuer: string;
  clientId: string;
  clientSecret: () => Promise<string>;
  logger: Logger;
}

/**
 * The relying-party side of sign-in, over any OpenID Connect provider. Discovery is lazy and retried,
 * so the API starts even while the provider is still coming up.
 */
export class OidcClient {
  #configuration: oidc.Configuration | undefined;
  #pending: Promise<oidc.Configuration> | undefined;
  #jwks: { uri: string; keys: ReturnType<typeof createRemoteJWKSet> } | undefined;

  constructor(private readonly options: OidcClientOptions) {}

  get issuer() {
    return this.options.issuer;
  }

  get clientId() {
    return this.options.clientId;
  }

  /**
   * The provider's signing keys (its discovered `jwks_uri`), to verify tokens it sends on its own, such
   * as back-channel logout tokens. jose caches the set and refetches it when an unknown key id appears
   * (key rotation), at most every 30 s.
   */
  async providerKeys(): Promise<{ issuer: string; keys: ReturnType<typeof createRemoteJWKSet> }> {
    const metadata = (await this.configuration()).serverMetadata();
    if (!metadata.jwks_uri) {
      throw new AppError('AUTH_PROVIDER_ERROR', { detail: 'The identity provider publishes no signing keys.' });
    }
    if (this.#jwks?.uri !== metadata.jwks_uri) {
      this.#jwks = { uri: metadata.jwks_uri, keys: createRemoteJWKSet(new URL(metadata.jwks_uri)) };
    }
    return { issuer: metadata.issuer, keys: this.#jwks.keys };
  }

  async configuration(): Promise<oidc.Configuration> {
    if (this.#configuration) return this.#configuration;
    this.#pending ??= this.#discover().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  async #discover(): Promise<oidc.Configuration> {
    const secret = await this.options.clientSecret();
    const insecure = this.options.issuer.startsWith('http://');
    try {
      const configuration = await oidc.discovery(
        new URL(this.options.issuer),
        this.options.clientId,
        secret,
        oidc.ClientSecretBasic(secret),
        insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
      );
      this.#configuration = configuration;
      return configuration;
    } catch (cause) {
      this.options.logger.warn({ err: cause, issuer: this.options.issuer }, 'OpenID Connect discovery failed');
      throw new AppError('AUTH_PROVIDER_UNAVAILABLE', {
        detail: 'The identity provider cannot be reached right now.',
        cause,
      });
    }
  }
}
