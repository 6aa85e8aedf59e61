import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import type { Logger } from '../lib/logger.ts';

export interface CaughtMessage {
  id: string;
  received_at: string;
  from: string | null;
  to: string[];
  subject: string | null;
  text: string | null;
  html: string | null;
  /**
   * The images the HTML shows by `cid:` (RFC 2392): the page rewrites those references to data URIs. Absent
   * from messages caught before they were kept.
   */
  inline_images?: { cid: string; content_type: string; base64: string }[];
}

/** Inline images at most this large each are kept for the page (the QR code is a few KB). */
const MAX_INLINE_IMAGE_BYTES = 2 * 1024 * 1024;

const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * The development mailbox: a real SMTP server on loopback that keeps every message (as files in the
 * data directory, so they survive restarts). The product sends through SMTP exactly as in production.
 */
export class Mailbox {
  #server: SMTPServer | undefined;
  readonly #messages: CaughtMessage[] = [];

  constructor(
    private readonly directory: string,
    private readonly logger: Logger,
  ) {}

  get messages(): readonly CaughtMessage[] {
    return this.#messages;
  }

  find(id: string) {
    return this.#messages.find((m) => m.id === id);
  }

  async start(port: number, host = '127.0.0.1'): Promise<number> {
    await mkdir(this.directory, { recursive: true });
    for (const file of (await readdir(this.directory)).filter((f) => f.endsWith('.json')).sort()) {
      try {
        this.#messages.push(JSON.parse(await readFile(path.join(this.directory, file), 'utf8')) as CaughtMessage);
      } catch {
        this.logger.warn({ file }, 'skipping an unreadable mailbox file');
      }
    }
    this.#messages.sort((a, b) => b.received_at.localeCompare(a.received_at));
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      size: MAX_MESSAGE_BYTES,
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          this.#store(
            Buffer.concat(chunks),
            session.envelope.rcptTo.map((r) => r.address),
          ).then(
            () => callback(),
            (err: Error) => callback(err),
          );
        });
      },
    });
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const address = server.server.address();
    return typeof address === 'object' && address ? address.port : port;
  }

  async #store(raw: Buffer, recipients: string[]) {
    // postal-mime decodes RFC 2047 encoded words in the headers and each part by its transfer encoding and
    // charset, so Japanese, Korean or Spanish text reads as sent.
    const parsed = await PostalMime.parse(raw);
    const inlineImages = parsed.attachments
      .filter((a) => a.contentId && a.mimeType.startsWith('image/'))
      .map((a) => {
        const content = a.content;
        const bytes =
          typeof content === 'string'
            ? Buffer.from(content, 'base64')
            : content instanceof Uint8Array
              ? Buffer.from(content)
              : Buffer.from(new Uint8Array(content));
        // Content-ID is `<id>` (RFC 2392 §2): `cid:id` references it without the brackets.
        return { cid: a.contentId!.replace(/^<|>$/g, ''), content_type: a.mimeType, bytes };
      })
      .filter((a) => a.bytes.length <= MAX_INLINE_IMAGE_BYTES && /^image\/(png|jpeg|gif|webp)$/.test(a.content_type))
      .map(({ bytes, ...a }) => ({ ...a, base64: bytes.toString('base64') }));
    const message: CaughtMessage = {
      id: randomUUID(),
      received_at: new Date().toISOString(),
      from: parsed.from?.address ?? null,
      to: recipients,
      subject: parsed.subject ?? null,
      text: parsed.text ?? null,
      html: parsed.html ?? null,
      ...(inlineImages.length > 0 ? { inline_images: inlineImages } : {}),
    };
    this.#messages.unshift(message);
    await writeFile(
      path.join(this.directory, `${message.received_at.replaceAll(':', '-')}-${message.id}.json`),
      JSON.stringify(message),
    );
  }

  async stop() {
    const server = this.#server;
    this.#server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
