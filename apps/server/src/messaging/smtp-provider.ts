import nodemailer, { type Transporter } from 'nodemailer';
import type { OutgoingMessage, Provider } from './messenger';

const SMTP_TIMEOUT_MS = 15_000;

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  /** Without `secure`: send only after STARTTLS, never in clear (a stripped STARTTLS fails the send). */
  requireTls?: boolean;
  user?: string | undefined;
  password?: string | undefined;
  from: string;
  /** Accept a self-signed certificate (local test servers only). */
  allowSelfSigned?: boolean;
}

export class SmtpProvider implements Provider {
  readonly name = 'smtp';
  readonly #transport: Transporter;
  readonly #from: string;

  constructor(settings: SmtpSettings) {
    this.#from = settings.from;
    this.#transport = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      requireTLS: settings.requireTls ?? false,
      auth: settings.user ? { user: settings.user, pass: settings.password ?? '' } : undefined,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
      tls: settings.allowSelfSigned ? { rejectUnauthorized: false } : undefined,
    });
  }

  async send(message: OutgoingMessage): Promise<void> {
    if (message.channel !== 'email') throw new Error('SMTP sends email only');
    await this.#transport.sendMail({
      from: this.#from,
      to: message.to,
      subject: message.subject ?? '',
      text: message.body,
    });
  }
}
