export { smtpMailer } from './smtp-mailer.js';
export type { Mailer } from './smtp-mailer.js';
