import { randomUUID } from 'node:crypto';
import { randomSecret } from '../crypto/keyed-hash.js';
import { formatRefreshToken } from '../domain/refresh-token.js';
import { scopesForRole } from '../domain/roles.js';
import {
  REFRESH_TOKEN_TTL_MS,
  sessionClient,
  type Session,
  type SessionChannel,
  type SessionClient,
} from '../domain/session.js';
import type { User } from '../domain/user.js';
import type { IdentityContext } from './context.js';

/** What login and refresh hand back. */
export interface IssuedSession {
  readonly accessToken: string;
  readonly expiresIn: number;
  readonly refreshToken: string;
  readonly user: User;
}

/**
 * A new session for an already verified user (password login, magic links, SSO, invitations).
 * `client` is who opened it, as the gateway saw it: the user's list of sessions shows it.
 */
export async function openSession(
  ctx: IdentityContext,
  user: User,
  channel: SessionChannel,
  client?: Partial<SessionClient> | null,
): Promise<IssuedSession> {
  const now = ctx.now();
  const sessionId = randomUUID();
  const refreshToken = formatRefreshToken({ sessionId, secret: randomSecret() });
  const session: Session = {
    id: sessionId,
    tenantId: user.tenantId,
    userId: user.id,
    channel,
    createdAt: now,
    currentHash: ctx.hasher.digest('refresh-token', refreshToken),
    currentExpiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
    previousHash: null,
    rotatedAt: null,
    graceUses: 0,
    revokedAt: null,
    revokedReason: null,
    client: sessionClient(client),
    lastUsedAt: null,
  };
  await ctx.sessions.insert(session);
  // Every sign-in path opens its session here: the members list shows the last one.
  await ctx.users.recordSignIn(user.id, now);
  return { ...(await signFor(ctx, user, sessionId, now)), refreshToken, user };
}

/** A user's access token for one session, signed with the current key. */
export async function signFor(ctx: IdentityContext, user: User, sessionId: string, now: Date) {
  const { token, expiresIn } = await ctx.keyRing.signer(now).sign(
    {
      subject: user.id,
      kind: 'user',
      tenantId: user.tenantId,
      role: user.role,
      scopes: scopesForRole(user.role),
      sessionId,
    },
    now,
  );
  return { accessToken: token, expiresIn };
}
