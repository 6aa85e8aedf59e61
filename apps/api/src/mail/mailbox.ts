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
}

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
    const parsed = await PostalMime.parse(raw);
    const message: CaughtMessage = {
      id: randomUUID(),
      received_at: new Date().toISOString(),
      from: parsed.from?.address ?? null,
      to: recipients,
      subject: parsed.subject ?? null,
      text: parsed.text ?? null,
      html: parsed.html ?? null,
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
