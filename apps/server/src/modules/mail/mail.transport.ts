import { isIP } from 'node:net';
import { createTransport } from 'nodemailer';
import type { Config } from '../../config';

/** One message as it goes to the relay; addresses already checked. */
export interface OutgoingMail {
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text: string;
  html?: string | undefined;
}

export interface SentMail {
  messageId: string;
  accepted: string[];
  rejected: string[];
}

/** Sends mail; the app's composition root passes one (SMTP from the environment unless a test gives its own). */
export interface Mailer {
  send(mail: OutgoingMail): Promise<SentMail>;
  close(): void;
}

/** Raised when a message is sent while SMTP_HOST is not set: the job fails with this text. */
export class MailNotConfiguredError extends Error {
  constructor() {
    super(
      'Mail is not configured: SMTP_HOST is not set, so this message could not be sent. ' +
        'Set SMTP_HOST (and SMTP_PORT, SMTP_SECURE, SMTP_USER, SMTP_PASSWORD as your relay needs) and restart; ' +
        'messages with attempts left are then sent.',
    );
    this.name = 'MailNotConfiguredError';
  }
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/**
 * The mailer configured from the environment: SMTP through nodemailer, one connection per message.
 * Credentials never travel in clear: with SMTP_USER set and no implicit TLS, STARTTLS is required
 * unless the relay is on this machine. Without SMTP_HOST every send fails with a clear error.
 */
export function createSmtpMailer(config: Pick<Config, 'smtp' | 'mailFrom'>): Mailer {
  const { host, port, secure, user, password } = config.smtp;
  if (!host) {
    return {
      send: () => Promise.reject(new MailNotConfiguredError()),
      close: () => undefined,
    };
  }
  const transport = createTransport(
    {
      host,
      port,
      secure,
      requireTLS: !secure && user !== undefined && !isLoopback(host),
      auth: user !== undefined ? { user, pass: password ?? '' } : undefined,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    },
    // Messages are built from our own text only: never let a payload read files or fetch URLs.
    { from: config.mailFrom, disableFileAccess: true, disableUrlAccess: true },
  );
  return {
    async send(mail) {
      const info = await transport.sendMail({
        to: mail.to,
        cc: mail.cc,
        bcc: mail.bcc,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html === undefined ? {} : { html: mail.html }),
      });
      return {
        messageId: info.messageId,
        accepted: (info.accepted ?? []).map(String),
        rejected: (info.rejected ?? []).map(String),
      };
    },
    close: () => transport.close(),
  };
}
