import { randomUUID } from 'node:crypto';
import { SignJWT, type CryptoKey } from 'jose';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  ACCESS_TOKEN_TYPE,
  SIGNING_ALGORITHM,
  type AccessTokenInput,
} from './claims.js';

export interface TokenSigner {
  sign(input: AccessTokenInput, now?: Date): Promise<{ token: string; expiresIn: number }>;
}

/** Mints access tokens (RFC 9068 shape) with the current key. */
export function createTokenSigner(options: {
  kid: string;
  privateKey: CryptoKey;
  issuer: string;
  audience: string;
  ttlSeconds?: number;
}): TokenSigner {
  const ttl = options.ttlSeconds ?? ACCESS_TOKEN_TTL_SECONDS;
  return {
    async sign(input, now = new Date()) {
      const iat = Math.floor(now.getTime() / 1000);
      const token = await new SignJWT({
        tid: input.tenantId,
        role: input.role,
        scope: input.scopes.join(' '),
        sid: input.sessionId,
        knd: input.kind,
      })
        .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: options.kid, typ: ACCESS_TOKEN_TYPE })
        .setSubject(input.subject)
        .setIssuer(options.issuer)
        .setAudience(options.audience)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttl)
        .setJti(randomUUID())
        .sign(options.privateKey);
      return { token, expiresIn: ttl };
    },
  };
}
