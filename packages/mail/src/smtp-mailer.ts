import nodemailer from 'nodemailer';

/** Sends one plain-text email (identity's magic links and invitations, notifications' mails to OWNERs). */
export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

/** Every step of an SMTP exchange is bounded: a stuck mail server costs seconds, not a hang. */
const SMTP_TIMEOUT_MS = 10_000;

/** A Mailer over SMTP (`smtp://host:port`; the local stack's and the tests' sink are plain SMTP). */
export function smtpMailer(options: { smtpUrl: string; from: string }): Mailer {
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    async send(message) {
      // base64 keeps the link on one encoded line (quoted-printable would rewrite `=`).
      await transport.sendMail({ from: options.from, ...message, textEncoding: 'base64' });
    },
  };
}
