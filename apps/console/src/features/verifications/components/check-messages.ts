import { type VerificationCheck, type VerificationOperator, zVerificationCheckCode } from '@cp/contracts';
import type { TFunction } from '../../../i18n/index.ts';

/** A rule in words: "age must be greater than 18". */
export function describeRule(
  t: TFunction,
  rule: { attribute: string; operator: VerificationOperator; value: string },
): string {
  return t(`verifications.rules.${rule.operator}`, { attribute: rule.attribute, value: rule.value });
}

const presentedText = (t: TFunction, presented: string | number | boolean | null) => {
  if (presented === null || presented === '') return t('verifications.checks.notPresented');
  if (typeof presented === 'boolean') return t(presented ? 'verifications.form.true' : 'verifications.form.false');
  return String(presented);
};

/**
 * One failed check in plain words in the user's language (one message per check code; a RULE says which
 * rule and what was presented). The API's `detail` is technical English and is not shown.
 */
export function describeFailedCheck(t: TFunction, check: VerificationCheck): string {
  if (check.code === zVerificationCheckCode.enum.RULE && check.rule) {
    return t('verifications.checks.ruleFailed', {
      rule: describeRule(t, check.rule),
      presented: presentedText(t, check.rule.presented),
    });
  }
  return t(`verifications.checks.${check.code}`);
}
