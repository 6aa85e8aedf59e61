import nodemailer, { type Transporter } from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** A stable id (e.g. per delivery) so that a resend is recognizably the same mail. */
  messageId?: string;
  /** Inline images (referenced as cid:… from the HTML) and other attachments. */
  attachments?: { filename: string; content: Buffer; contentType: string; cid?: string }[];
}

/** Sends mail over SMTP: a real server in production, the in-process catcher in embedded mode. */
export class Mailer {
  readonly #transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.#transport = nodemailer.createTransport(smtpUrl);
  }

  async send(mail: OutgoingMail) {
    await this.#transport.sendMail({ from: this.from, ...mail });
  }

  close() {
    this.#transport.close();
  }
}
