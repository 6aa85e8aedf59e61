import { ProblemCode } from '@cp/contracts';
import { isApiError } from './api-error.ts';

/**
 * The API error codes the console explains in words of its own, and the message of each (an i18n key; a key
 * with plural forms is named without its `_one`/`_other` suffix). Anything not listed is explained by the
 * failing call's catalogue message (spec §8). Every language has every message (`problem-messages.test.ts`).
 */
export const problemMessageKeys = {
  [ProblemCode.RATE_LIMITED]: 'errors.problem.RATE_LIMITED',
  [ProblemCode.DATABASE_UNAVAILABLE]: 'errors.problem.DATABASE_UNAVAILABLE',
  [ProblemCode.DATABASE_UNIQUE_VIOLATION]: 'errors.problem.DATABASE_UNIQUE_VIOLATION',
  [ProblemCode.DATABASE_REFERENCE_VIOLATION]: 'errors.problem.DATABASE_REFERENCE_VIOLATION',
  [ProblemCode.DATABASE_TRANSACTION_CONFLICT]: 'errors.problem.DATABASE_TRANSACTION_CONFLICT',
  [ProblemCode.DATABASE_CHECK_VIOLATION]: 'errors.problem.DATABASE_CHECK_VIOLATION',
  [ProblemCode.DATABASE_VALUE_TOO_LONG]: 'errors.problem.DATABASE_VALUE_TOO_LONG',
  [ProblemCode.DATABASE_VALUE_INVALID]: 'errors.problem.DATABASE_VALUE_INVALID',
  [ProblemCode.ORGANIZATION_LAST_ADMIN]: 'members.errors.lastAdmin',
  [ProblemCode.ORGANIZATION_ALREADY_MEMBER]: 'members.invite.alreadyMember',
  [ProblemCode.CREDENTIAL_RESEND_TOO_SOON]: 'issuing.detail.resendTooSoon',
  [ProblemCode.CREDENTIAL_SCHEMA_NOT_FOUND]: 'verifications.validation.schemaNotFound',
  [ProblemCode.WEBHOOK_LIMIT_REACHED]: 'integrations.webhooks.errors.limit',
  [ProblemCode.WEBHOOK_DISABLED]: 'integrations.webhooks.testDisabled',
  [ProblemCode.TRUST_ANCHOR_LIMIT_REACHED]: 'trustAnchors.errors.limit',
  [ProblemCode.WALLET_PROVIDER_LIMIT_REACHED]: 'walletProviders.errors.limit',
} as const satisfies { readonly [Code in ProblemCode]?: string };

export type ExplainedProblemCode = keyof typeof problemMessageKeys;

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** The message key the console has for the code of a failed call, if it has one. */
export function problemMessageKey(error: unknown): string | undefined {
  if (!isApiError(error)) return undefined;
  const code = error.code;
  return code && Object.hasOwn(problemMessageKeys, code) ? problemMessageKeys[code as ExplainedProblemCode] : undefined;
}

/**
 * The message for a failed call: the console's own words for its error code when it has them (a duplicate,
 * too many requests, the last admin…), else the message of `fallbackKey`.
 */
export function problemMessage(t: Translate, error: unknown, fallbackKey: string, values?: Record<string, unknown>) {
  return t(problemMessageKey(error) ?? fallbackKey, values);
}
