import { randomUUID } from 'node:crypto';
import {
  createTokenSigner,
  createTokenVerifier,
  generateSigningKey,
  importPrivateKey,
  type TokenVerifier,
} from '@tap/tokens';

const ISSUER = 'https://identity.entitlements-test';
const AUDIENCE = 'tap-api';

/** A real ES256 key pair: the verifier checks tokens with jose against this JWKS (no mock). */
export interface TestTokens {
  readonly verifier: TokenVerifier;
  /** `Bearer <access token>` of an OWNER of `tenantId`. */
  bearer(tenantId: string): Promise<string>;
}

export async function testTokens(): Promise<TestTokens> {
  const key = await generateSigningKey();
  const signer = createTokenSigner({
    kid: key.kid,
    privateKey: await importPrivateKey(key.privateJwk),
    issuer: ISSUER,
    audience: AUDIENCE,
  });
  const verifier = createTokenVerifier({
    issuer: ISSUER,
    audience: AUDIENCE,
    fetchJwks: async () => ({ keys: [key.publicJwk] }),
  });
  return {
    verifier,
    async bearer(tenantId) {
      const { token } = await signer.sign({
        subject: randomUUID(),
        kind: 'user',
        tenantId,
        role: 'OWNER',
        scopes: [],
        sessionId: randomUUID(),
      });
      return `Bearer ${token}`;
    },
  };
}
