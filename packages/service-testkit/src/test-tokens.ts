import { randomUUID } from 'node:crypto';
import {
  createTokenSigner,
  createTokenVerifier,
  generateSigningKey,
  importPrivateKey,
  type TokenVerifier,
} from '@tap/tokens';

const ISSUER = 'https://identity.service-test';
const AUDIENCE = 'tap-api';

/** A real ES256 key pair: the service under test verifies tokens with jose against this JWKS (no mock). */
export interface TestTokens {
  readonly verifier: TokenVerifier;
  /** `Bearer <access token>` of a user of `tenantId` with `role` (default OWNER). */
  bearer(tenantId: string, role?: string): Promise<string>;
  /** `Bearer <access token>` of an OAuth client of `tenantId` granted `scopes`. */
  clientBearer(tenantId: string, scopes: readonly string[]): Promise<string>;
  /** `Bearer <service token>` that `service` (default identity) minted for `tenantId`. */
  serviceBearer(tenantId: string, service?: string): Promise<string>;
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
    async bearer(tenantId, role = 'OWNER') {
      const input = {
        subject: randomUUID(),
        kind: 'user' as const,
        tenantId,
        role,
        scopes: [],
        sessionId: randomUUID(),
      };
      return `Bearer ${(await signer.sign(input)).token}`;
    },
    async clientBearer(tenantId, scopes) {
      const input = {
        subject: `client-${randomUUID()}`,
        kind: 'client' as const,
        tenantId,
        role: '',
        scopes: [...scopes],
        sessionId: randomUUID(),
      };
      return `Bearer ${(await signer.sign(input)).token}`;
    },
    async serviceBearer(tenantId, service = 'identity') {
      const input = {
        subject: service,
        kind: 'service' as const,
        tenantId,
        role: '',
        scopes: [],
        sessionId: `service:${service}`,
      };
      return `Bearer ${(await signer.sign(input)).token}`;
    },
  };
}
