import nodemailer, { type Transporter } from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
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
