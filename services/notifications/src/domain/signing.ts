/**
 * Standard Webhooks (https://www.standardwebhooks.com): the signed content is
 * `<webhook-id>.<webhook-timestamp>.<body>`, the timestamp in whole seconds since the epoch.
 */
export function signedContent(webhookId: string, timestampSeconds: number, body: string): string {
  return `${webhookId}.${timestampSeconds}.${body}`;
}

/** `v1,<sig> v1,<sig>`: one signature per secret in force (two during a rotation's overlap). */
export function signatureHeader(signaturesBase64: readonly string[]): string {
  return signaturesBase64.map((s) => `v1,${s}`).join(' ');
}

/** The three headers of a delivery, the same `webhook-id` on every retry of one event. */
export function webhookHeaders(
  webhookId: string,
  timestampSeconds: number,
  signaturesBase64: readonly string[],
): Record<string, string> {
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signatureHeader(signaturesBase64),
  };
}

/** Largest event body a webhook carries (bytes of UTF-8 JSON). */
export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;
