import type { ClientErrorReport } from '@cp/contracts';

export const CLIENT_ERROR_QUEUE = 'client-error.report';

export type ClientErrorJob = ClientErrorReport & { reported_at: string };

/** Posts a crash report to a chat webhook (Slack/Discord/Mattermost-compatible `text` payload). */
export function deliverClientError(webhookUrl: string, fetchImpl: typeof fetch = fetch) {
  return async (job: ClientErrorJob) => {
    const text = [
      `Console crash at ${job.reported_at}`,
      job.url ? `Page: ${job.url}` : '',
      job.message,
      job.stack ?? '',
    ]
      .filter(Boolean)
      .join('\n')
      .slice(0, 3900);
    const response = await fetchImpl(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text, content: text.slice(0, 1900) }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`Webhook answered ${response.status}`);
  };
}
