import { describe, expect, it } from '@jest/globals';
import { signedContent, signatureHeader } from '../domain/index.js';
import { createSecretBox } from './secret-box.js';
import { generateWebhookSecret, signWithSecret } from './webhook-signer.js';

describe('webhook signing', () => {
  it('matches the Standard Webhooks reference vector', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const content = signedContent('msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(signatureHeader([signWithSecret(secret, content)])).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('issues whsec_ secrets of 32 random bytes', () => {
    const a = generateWebhookSecret();
    expect(Buffer.from(a.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(a);
  });

  it('seals a secret so that only the same key opens it', () => {
    const box = createSecretBox('k'.repeat(32));
    const sealed = box.seal('whsec_abc');
    expect(sealed).not.toContain('abc');
    expect(box.open(sealed)).toBe('whsec_abc');
    expect(() => createSecretBox('j'.repeat(32)).open(sealed)).toThrow();
    expect(() => box.open('v1.x')).toThrow();
  });
});
