import type { Database } from '@cp/db';
import Provider, {
  type ClientMetadata,
  type Configuration,
  type FindAccount,
  interactionPolicy,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import { findAccountById, listAccountOrganizations } from '../accounts/accounts.service.ts';
import { isTwoFactorEnabled } from '../accounts/two-factor.ts';
import { databaseAdapterFor } from './adapter.ts';
import type { AccountCenterSecrets } from './keys.ts';

export const INTERNAL_CLIENT_ID = 'account-center';
export const SCOPES = ['openid', 'profile', 'email', 'organizations', 'offline_access'];

export interface RelyingPartyClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
  /**
   * OpenID Connect Back-Channel Logout 1.0 §2.2: where the provider POSTs a logout token when the
   * account's sessions end. The client is registered with `backchannel_logout_session_required`, so its
   * ID tokens carry the provider session's `sid` and a sign-out sends that `sid` (and `sub`): only the
   * client sessions opened from that provider session end. A password change sends `sub` only (all).
   */
  backchannel_logout_uri?: string;
  /** Defaults to client_secret_basic; oidc-provider accepts exactly one registered method per client. */
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post';
}

export interface ProviderRenderers {
  logoutSource(ctx: KoaContextWithOIDC, form: string): void | Promise<void>;
  postLogoutSuccessSource(ctx: KoaContextWithOIDC): void | Promise<void>;
  renderError(ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }, error: unknown): void;
}

/**
 * OpenID Connect "Initiating User Registration via OpenID Connect 1.0": `prompt=create` asks for the
 * sign-up screen. oidc-provider only accepts prompt values of requestable policy prompts, so `create` is
 * registered as one; its only check is the built-in "requested and not yet resolved" check, resolved when
 * the interaction result carries a `create` entry.
 */
function interactionPolicyWithCreate(db: Database) {
  const policy = interactionPolicy.base();
  policy.add(new interactionPolicy.Prompt({ name: 'create', requestable: true }), 0);
  // A session opened with the password alone (before two-step sign-in was turned on, or while it was off) does
  // not sign the account in to a client once two-step is on: the person signs in again, with both steps.
  policy.get('login')?.checks.add(
    new interactionPolicy.Check('two_factor_required', 'Two-step sign-in is required', async (ctx) => {
      const { session, result } = ctx.oidc;
      if (!session?.accountId || result?.login) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      if (amrOf(session.amr).includes('otp')) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      const account = await findAccountById(db, session.accountId);
      return account && isTwoFactorEnabled(account)
        ? interactionPolicy.Check.REQUEST_PROMPT
        : interactionPolicy.Check.NO_NEED_TO_PROMPT;
    }),
  );
  return policy;
}

const amrOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

function findAccountIn(db: Database): FindAccount {
  return async (_ctx, sub, token) => {
    const account = await findAccountById(db, sub);
    if (!account) return undefined;
    // RFC 8176 `amr` of the sign-in behind the token: the ID token takes it from the session (oidc-provider);
    // userinfo reads it from the access token's extra claims (see extraTokenClaims).
    const source = token as { amr?: unknown; extra?: { amr?: unknown } } | undefined;
    const amr = amrOf(source?.amr ?? source?.extra?.amr);
    return {
      accountId: account.id,
      async claims(use, scope) {
        const scopes = new Set(scope.split(' '));
        return {
          sub: account.id,
          ...(use === 'userinfo' && amr.length ? { amr } : {}),
          given_name: account.firstName,
          family_name: account.lastName,
          preferred_username: account.username,
          ...(account.locale ? { locale: account.locale } : {}),
          email: account.email,
          // Self sign-ups are not verified (no confirmation mail yet); operator-created or -marked ones are.
          email_verified: account.emailVerifiedAt !== null,
          ...(scopes.has('organizations')
            ? {
                organizations: (await listAccountOrganizations(db, account.id)).map((o) => ({
                  id: o.id,
                  name: o.name,
                  description: o.description ?? '',
                })),
              }
            : {}),
        };
      },
    };
  };
}

/**
 * Every registered client is first-party: consent is implied, so the grant covers whatever OIDC scopes
 * and claims the request asks for (oidc-provider's "skip consent" recipe).
 */
async function loadFirstPartyGrant(ctx: KoaContextWithOIDC) {
  const { oidc } = ctx;
  const accountId = oidc.session?.accountId;
  const clientId = oidc.client?.clientId;
  if (!accountId || !clientId) return undefined;
  const grantId = oidc.result?.consent?.grantId ?? oidc.session?.grantIdFor(clientId);
  let grant = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
  if (grant && (grant.accountId !== accountId || grant.clientId !== clientId)) grant = undefined;
  grant ??= new oidc.provider.Grant({ accountId, clientId });
  grant.addOIDCScope([...oidc.requestParamOIDCScopes].join(' '));
  const claims = [...oidc.requestParamClaims];
  if (claims.length) grant.addOIDCClaims(claims);
  await grant.save();
  return grant;
}

export function createProvider(options: {
  db: Database;
  issuer: string;
  clients: RelyingPartyClient[];
  secrets: AccountCenterSecrets;
  cookieSecure: boolean;
  renderers: ProviderRenderers;
}): Provider {
  const { issuer } = options;
  const internalClient: ClientMetadata = {
    client_id: INTERNAL_CLIENT_ID,
    client_name: 'Account center',
    redirect_uris: [`${issuer}/account/callback`],
    post_logout_redirect_uris: [`${issuer}/signed-out`],
    grant_types: [],
    response_types: ['none'],
    token_endpoint_auth_method: 'none',
  };
  const clients: ClientMetadata[] = [
    ...options.clients.map(
      (c): ClientMetadata => ({
        client_id: c.client_id,
        client_secret: c.client_secret,
        redirect_uris: c.redirect_uris,
        post_logout_redirect_uris: c.post_logout_redirect_uris ?? [],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: c.token_endpoint_auth_method ?? 'client_secret_basic',
        ...(c.backchannel_logout_uri
          ? { backchannel_logout_uri: c.backchannel_logout_uri, backchannel_logout_session_required: true }
          : {}),
      }),
    ),
    // The account center's own pages sign people in through the provider too (response_type=none: no
    // token is issued, the provider session is the result).
    internalClient,
  ];

  // oidc-provider refuses outgoing requests to private and loopback addresses (SSRF protection). The
  // only addresses it calls here are the back-channel logout URIs of our own configured clients, which
  // are often on the same host or private network (the console's API): those origins are trusted.
  const trustedOrigins = new Set(
    options.clients.flatMap((c) => (c.backchannel_logout_uri ? [new URL(c.backchannel_logout_uri).origin] : [])),
  );
  const fetchTrusted: NonNullable<Configuration['fetch']> = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (!trustedOrigins.has(url.origin) || !init) return globalThis.fetch(input, init);
    const { dispatcher: _ssrfGuard, ...rest } = init as RequestInit & { dispatcher?: unknown };
    return globalThis.fetch(input, rest);
  };

  const cookieOptions = { httpOnly: true, sameSite: 'lax' as const, secure: options.cookieSecure };
  const configuration: Configuration = {
    adapter: databaseAdapterFor(options.db),
    clients,
    jwks: options.secrets.jwks as Configuration['jwks'],
    cookies: {
      keys: options.secrets.cookieKeys,
      long: { ...cookieOptions, signed: true },
      short: { ...cookieOptions, signed: true },
    },
    findAccount: findAccountIn(options.db),
    fetch: fetchTrusted,
    loadExistingGrant: loadFirstPartyGrant,
    // The sign-in's `amr` travels with the access token so that userinfo can answer it too.
    extraTokenClaims: async (ctx) => {
      const source = ctx.oidc.entities.AuthorizationCode ?? ctx.oidc.entities.RefreshToken;
      const amr = amrOf((source as { amr?: unknown } | undefined)?.amr);
      return amr.length ? { amr } : undefined;
    },
    scopes: SCOPES,
    claims: {
      openid: ['sub', 'amr'],
      profile: ['given_name', 'family_name', 'preferred_username', 'locale'],
      email: ['email', 'email_verified'],
      organizations: ['organizations'],
    },
    // Profile, email and organizations claims in the ID token too, not only from userinfo.
    conformIdTokenClaims: false,
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    // Initiating User Registration via OpenID Connect 1.0 §4: advertise the `create` prompt value.
    discovery: { prompt_values_supported: ['none', 'login', 'consent', 'create'] },
    responseTypes: ['code', 'none'] as Configuration['responseTypes'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: options.renderers.logoutSource,
        postLogoutSuccessSource: options.renderers.postLogoutSuccessSource,
      },
      userinfo: { enabled: true },
      revocation: { enabled: true },
      // OpenID Connect Back-Channel Logout 1.0: tells the console's API when the account's sessions end.
      backchannelLogout: { enabled: true },
    },
    interactions: {
      policy: interactionPolicyWithCreate(options.db),
      url: (_ctx, interaction) => `/interaction/${interaction.uid}`,
    },
    renderError: options.renderers.renderError,
    ttl: {
      Session: 14 * 24 * 60 * 60,
      Interaction: 60 * 60,
      AuthorizationCode: 60,
      AccessToken: 15 * 60,
      IdToken: 60 * 60,
      Grant: 14 * 24 * 60 * 60,
      RefreshToken: 30 * 24 * 60 * 60,
    },
    extraParams: [],
  };

  const provider = new Provider(issuer, configuration);
  // Behind a TLS-terminating proxy (cookieSecure), trust X-Forwarded-Proto so secure cookies can be set.
  provider.proxy = options.cookieSecure;
  return provider;
}
