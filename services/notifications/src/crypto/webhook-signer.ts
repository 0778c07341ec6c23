import { createHmac, randomBytes } from 'node:crypto';

/** `whsec_` and 32 random bytes in base64, as Standard Webhooks libraries expect. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** base64 HMAC-SHA256 of `content` under the key a `whsec_` secret carries. */
export function signWithSecret(secret: string, content: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return createHmac('sha256', key).update(content, 'utf8').digest('base64');
}
