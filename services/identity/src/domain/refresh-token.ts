const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** An opaque refresh token's parts: the session it belongs to, and 256 random bits. */
export interface RefreshTokenParts {
  readonly sessionId: string;
  readonly secret: string;
}

/**
 * `<sessionId>.<secret>`. The session id finds the family by primary key; only the keyed hash
 * of the whole token is stored, so the token cannot be rebuilt from the database.
 */
export function formatRefreshToken(parts: RefreshTokenParts): string {
  return `${parts.sessionId}.${parts.secret}`;
}

/** The parts of a well-formed token, or undefined for anything else. */
export function parseRefreshToken(token: string): RefreshTokenParts | undefined {
  const dot = token.indexOf('.');
  if (dot < 0) return undefined;
  const sessionId = token.slice(0, dot);
  const secret = token.slice(dot + 1);
  return SESSION_ID.test(sessionId) && SECRET.test(secret) ? { sessionId, secret } : undefined;
}
