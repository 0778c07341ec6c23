/** Why a webhook was refused; receivers answer 400 (or 401) and the platform retries. */
export type WebhookVerificationFailure =
  | 'MISSING_HEADERS'
  | 'TIMESTAMP_INVALID'
  | 'TIMESTAMP_OUT_OF_TOLERANCE'
  | 'SIGNATURE_MISMATCH'
  | 'SECRET_INVALID';

export class WebhookVerificationError extends Error {
  constructor(readonly code: WebhookVerificationFailure) {
    super(`webhook not verified: ${code}`);
    this.name = 'WebhookVerificationError';
  }
}

/** What a verified webhook carried. */
export interface VerifiedWebhook {
  /** `webhook-id`: the event id, the same on every retry: use it to drop duplicates. */
  readonly id: string;
  readonly timestamp: Date;
  /** The event (the domain-event envelope: id, type, tenantId, occurredAt, subject, data). */
  readonly payload: unknown;
}

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now; 5 minutes, as Standard Webhooks suggests. */
  readonly toleranceSeconds?: number;
  readonly now?: () => Date;
}

type HeaderBag = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Verifies a webhook sent by the platform (Standard Webhooks): the `v1` HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>` under the endpoint's `whsec_` secret must match one of
 * the signatures in `webhook-signature` (two during a secret rotation), and the timestamp must be
 * recent, which stops a captured delivery from being replayed later. `body` is the raw request
 * body, before any JSON parsing. The comparison is Web Crypto's HMAC verify (constant time).
 * Resolves to the parsed event, or rejects with {@link WebhookVerificationError}.
 */
export async function verifyWebhook(
  secret: string,
  headers: HeaderBag,
  body: string,
  options: VerifyWebhookOptions = {},
): Promise<VerifiedWebhook> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('MISSING_HEADERS');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('TIMESTAMP_INVALID');
  const seconds = Number(timestamp);
  const now = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  if (Math.abs(now - seconds) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS))
    throw new WebhookVerificationError('TIMESTAMP_OUT_OF_TOLERANCE');
  const key = await hmacKey(secret);
  const content = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  for (const part of signatures.split(' ')) {
    const [version, signature] = part.split(',', 2);
    if (version !== 'v1' || !signature) continue;
    const bytes = fromBase64(signature);
    if (bytes && (await crypto.subtle.verify('HMAC', key, bytes, content)))
      return { id, timestamp: new Date(seconds * 1000), payload: JSON.parse(body) as unknown };
  }
  throw new WebhookVerificationError('SIGNATURE_MISMATCH');
}

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const entry = Object.entries(bag).find(([key]) => key.toLowerCase() === name)?.[1];
  return typeof entry === 'string' ? entry : entry?.[0];
}

async function hmacKey(secret: string): Promise<CryptoKey> {
  const raw = fromBase64(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  if (!raw || raw.length === 0) throw new WebhookVerificationError('SECRET_INVALID');
  return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}
