import type { TestApp } from '../harness.ts';
import { jobsSettled, waitFor } from './wait.ts';

/** A mail the development mailbox caught. */
export type CaughtMail = {
  id: string;
  to: string[];
  subject: string | null;
  text: string | null;
  html: string | null;
  inline_images?: { cid: string; content_type: string; base64: string }[];
};

/** The mails the development mailbox caught for `email`, oldest first as the mailbox lists them. */
export async function mailsTo(t: TestApp, email: string): Promise<CaughtMail[]> {
  const response = await t.app.inject({ url: '/dev/mailbox/messages' });
  return (response.json() as { results: CaughtMail[] }).results.filter((m) => m.to.includes(email));
}

/**
 * Waits until each of `emails` has at least `count` mails; with `queue`, then also until that queue's jobs have
 * finished (the mailbox has a mail before its job records it as sent, and a duplicate job would have run by
 * then). Answers the mails of the first address.
 */
export async function waitForMails(
  t: TestApp,
  emails: string | string[],
  { count = 1, queue }: { count?: number; queue?: string } = {},
): Promise<CaughtMail[]> {
  const all = Array.isArray(emails) ? emails : [emails];
  await waitFor(`${count} mail(s) to ${all.join(', ')}`, async () => {
    const counts = await Promise.all(all.map(async (e) => (await mailsTo(t, e)).length));
    return counts.every((c) => c >= count);
  });
  if (queue) await jobsSettled(t, queue);
  return mailsTo(t, all[0]!);
}
