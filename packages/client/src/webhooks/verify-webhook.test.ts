import { describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { verifyWebhook, WebhookVerificationError } from './verify-webhook.js';

// The Standard Webhooks specification's reference vector.
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const timestamp = '1614265330';
const body = '{"test": 2432232314}';
const signature = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
const at = () => new Date(1614265330 * 1000 + 60_000);
const headers = { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature };

async function failure(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) => (error instanceof WebhookVerificationError ? error.code : String(error)),
  );
}

describe('verifyWebhook', () => {
  it('accepts the reference vector and returns the event', async () => {
    const verified = await verifyWebhook(secret, headers, body, { now: at });
    expect(verified).toEqual({ id, timestamp: new Date(1614265330 * 1000), payload: { test: 2432232314 } });
  });

  it('accepts a Headers object and either of two signatures during a rotation', async () => {
    const both = new Headers({ ...headers, 'webhook-signature': `v1,${'A'.repeat(43)}= ${signature}` });
    expect((await verifyWebhook(secret, both, body, { now: at })).id).toBe(id);
  });

  it('agrees with an HMAC computed by Node for a fresh secret', async () => {
    const key = Buffer.alloc(32, 7);
    const sig = createHmac('sha256', key).update(`e1.${timestamp}.{}`).digest('base64');
    const fresh = `whsec_${key.toString('base64')}`;
    const h = { 'webhook-id': 'e1', 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${sig}` };
    expect((await verifyWebhook(fresh, h, '{}', { now: at })).payload).toEqual({});
  });

  it.each([
    ['a changed body', secret, headers, '{"test": 2432232315}', 'SIGNATURE_MISMATCH'],
    ['another secret', `whsec_${Buffer.alloc(24).toString('base64')}`, headers, body, 'SIGNATURE_MISMATCH'],
    ['a changed id', secret, { ...headers, 'webhook-id': 'msg_other' }, body, 'SIGNATURE_MISMATCH'],
    [
      'no signature header',
      secret,
      { 'webhook-id': id, 'webhook-timestamp': timestamp },
      body,
      'MISSING_HEADERS',
    ],
    [
      'a timestamp that is not one',
      secret,
      { ...headers, 'webhook-timestamp': 'soon' },
      body,
      'TIMESTAMP_INVALID',
    ],
    [
      'an old timestamp',
      secret,
      { ...headers, 'webhook-timestamp': '1614260000' },
      body,
      'TIMESTAMP_OUT_OF_TOLERANCE',
    ],
    [
      'a v2 signature only',
      secret,
      { ...headers, 'webhook-signature': signature.replace('v1,', 'v2,') },
      body,
      'SIGNATURE_MISMATCH',
    ],
    [
      'garbage for a signature',
      secret,
      { ...headers, 'webhook-signature': 'v1,!!!' },
      body,
      'SIGNATURE_MISMATCH',
    ],
  ])('refuses %s', async (_label, key, h, payload, code) => {
    expect(await failure(verifyWebhook(key, h, payload, { now: at }))).toBe(code);
  });
});
