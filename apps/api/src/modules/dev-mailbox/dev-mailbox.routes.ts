import type { FastifyInstance } from 'fastify';
import type { CaughtMessage, Mailbox } from '../../mail/mailbox.ts';

/** Every page states its charset: a message's HTML need not, and the browser would then guess (badly). */
const HTML = 'text/html; charset=utf-8';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:Inter,system-ui,sans-serif;margin:0;background:#f9fafb;color:#101828}
header{background:#004a46;color:#fff;padding:16px 24px;font-weight:600}main{max-width:960px;margin:24px auto;padding:0 16px}
table{width:100%;border-collapse:collapse;background:#fff;border:1px solid #eaecf0;border-radius:8px}
td,th{padding:10px 12px;border-bottom:1px solid #eaecf0;text-align:left;font-size:14px}a{color:#004a46}
iframe{width:100%;height:70vh;border:1px solid #eaecf0;background:#fff;border-radius:8px}.meta{font-size:14px;color:#475467}</style>
</head><body><header>Development mailbox</header><main>${body}</main></body></html>`;

/**
 * The message's HTML with its `cid:` image references (RFC 2392) pointing at the inline images as data URIs,
 * so the page shows them without serving anything else (its CSP allows images from data: only).
 */
export function messageHtml(message: CaughtMessage) {
  if (!message.html) return `<!doctype html><meta charset="utf-8"><pre>${escapeHtml(message.text ?? '')}</pre>`;
  const images = new Map((message.inline_images ?? []).map((image) => [image.cid, image]));
  return message.html.replace(/(["'(])cid:([^"')\s]+)/gi, (whole, quote: string, cid: string) => {
    let id = cid;
    try {
      id = decodeURIComponent(cid);
    } catch {
      // keep it as written
    }
    const image = images.get(id);
    return image ? `${quote}data:${image.content_type};base64,${image.base64}` : whole;
  });
}

/**
 * The development mailbox (embedded mode only): every message the product sent through SMTP, as a
 * page and as JSON. Never registered in production.
 */
export function registerDevMailbox(app: FastifyInstance, mailbox: Mailbox) {
  // The list leaves out the images' bytes (one message's JSON has them).
  app.get('/dev/mailbox/messages', async () => ({
    results: mailbox.messages.map(({ inline_images: _images, ...message }) => message),
    total: mailbox.messages.length,
  }));
  app.get<{ Params: { id: string } }>('/dev/mailbox/messages/:id', async (request, reply) => {
    const message = mailbox.find(request.params.id);
    if (!message) return reply.status(404).type('text/plain').send('No such message');
    return message;
  });
  app.get<{ Params: { id: string } }>('/dev/mailbox/messages/:id/html', async (request, reply) => {
    const message = mailbox.find(request.params.id);
    if (!message) return reply.status(404).type('text/plain').send('No such message');
    // Shown inside a sandboxed iframe: the message's own HTML runs no script and reaches nothing.
    return reply
      .header('content-security-policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'")
      .type(HTML)
      .send(messageHtml(message));
  });
  app.get('/dev/mailbox', async (_request, reply) => {
    const rows = mailbox.messages
      .map(
        (m) =>
          `<tr><td>${escapeHtml(m.received_at.replace('T', ' ').slice(0, 19))}</td><td>${escapeHtml(m.to.join(', '))}</td>` +
          `<td><a href="/dev/mailbox/${encodeURIComponent(m.id)}">${escapeHtml(m.subject ?? '(no subject)')}</a></td></tr>`,
      )
      .join('');
    return reply
      .type(HTML)
      .send(
        page(
          'Development mailbox',
          mailbox.messages.length === 0
            ? '<p>No messages yet. Everything the platform sends by e-mail appears here.</p>'
            : `<table><thead><tr><th>Received</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>`,
        ),
      );
  });
  app.get<{ Params: { id: string } }>('/dev/mailbox/:id', async (request, reply) => {
    const m = mailbox.find(request.params.id);
    if (!m) return reply.status(404).type(HTML).send(page('Not found', '<p>No such message.</p>'));
    return reply
      .type(HTML)
      .send(
        page(
          m.subject ?? 'Message',
          `<p><a href="/dev/mailbox">← All messages</a></p><h2>${escapeHtml(m.subject ?? '(no subject)')}</h2>` +
            `<p class="meta">From ${escapeHtml(m.from ?? '')} to ${escapeHtml(m.to.join(', '))} · ${escapeHtml(m.received_at)}</p>` +
            `<iframe sandbox src="/dev/mailbox/messages/${encodeURIComponent(m.id)}/html" title="Message"></iframe>`,
        ),
      );
  });
}
