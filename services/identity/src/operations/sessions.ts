import { randomUUID } from 'node:crypto';
import { randomSecret } from '../crypto/keyed-hash.js';
import { identityErrors } from '../domain/errors.js';
import { formatRefreshToken, parseRefreshToken } from '../domain/refresh-token.js';
import { scopesForRole } from '../domain/roles.js';
import {
  classifyPresentation,
  REFRESH_TOKEN_TTL_MS,
  type RevocationReason,
  type Session,
  type SessionChannel,
} from '../domain/session.js';
import { normaliseEmail, type User } from '../domain/user.js';
import type { IdentityContext } from './context.js';

/** What login and refresh hand back. */
export interface IssuedSession {
  readonly accessToken: string;
  readonly expiresIn: number;
  readonly refreshToken: string;
  readonly user: User;
}

/** Longer than any password we accept; longer input is not hashed as such (a cheap DoS guard). */
const MAX_PASSWORD_INPUT = 1_024;

const invalidCredentials = () => identityErrors.create('INVALID_CREDENTIALS');
const invalidRefreshToken = () => identityErrors.create('REFRESH_TOKEN_INVALID');

/**
 * Email and password to a new session. Unknown email, wrong password and inactive account take
 * the same path (one argon2 verification each) and fail with the same error.
 */
export async function login(
  ctx: IdentityContext,
  email: string,
  password: string,
  channel: SessionChannel = 'bearer',
): Promise<IssuedSession> {
  let found: Awaited<ReturnType<IdentityContext['users']['findCredentials']>> = undefined;
  try {
    found = await ctx.users.findCredentials(normaliseEmail(email));
  } catch (error) {
    if (!identityErrors.is(error, 'EMAIL_INVALID')) throw error;
  }
  const matches = await ctx.passwords.verify(
    found?.passwordHash,
    password.length <= MAX_PASSWORD_INPUT ? password : '',
  );
  if (!found || !matches || !found.user.active) throw invalidCredentials();
  return openSession(ctx, found.user, channel);
}

/** A new session for an already verified user (password login; magic links and SSO later). */
export async function openSession(
  ctx: IdentityContext,
  user: User,
  channel: SessionChannel,
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
  };
  await ctx.sessions.insert(session);
  return { ...(await signFor(ctx, user, sessionId, now)), refreshToken, user };
}

/**
 * Exchanges a refresh token for a new pair; the presented one is rotated out. The child is
 * derived from the parent under a server key, so re-presenting the immediate parent inside the
 * grace window yields the very same child without the child ever being stored.
 */
export async function refresh(
  ctx: IdentityContext,
  refreshToken: string,
  channel: SessionChannel = 'bearer',
): Promise<IssuedSession> {
  const parts = parseRefreshToken(refreshToken);
  if (!parts) throw invalidRefreshToken();
  const now = ctx.now();
  const hash = ctx.hasher.digest('refresh-token', refreshToken);
  const child = formatRefreshToken({
    sessionId: parts.sessionId,
    secret: ctx.hasher.digest('refresh-token-child', refreshToken),
  });
  const childHash = ctx.hasher.digest('refresh-token', child);
  const session = await ctx.locks.run(`session:${parts.sessionId}`, async () => {
    const rotated = await ctx.sessions.rotate(
      parts.sessionId,
      hash,
      { hash: childHash, expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS) },
      now,
    );
    return rotated ?? (await settleNotCurrent(ctx, parts.sessionId, { hash, childHash }, now));
  });
  // A cookie session's refresh token is HttpOnly: seen on the bearer endpoint (or the reverse)
  // it was lifted from where it belongs, so the family ends as on reuse.
  if ((session.channel ?? 'bearer') !== channel) {
    await revokeSessions(ctx, [session.id], 'wrong-channel');
    throw invalidRefreshToken();
  }
  const user = await ctx.users.findInTenant(session.tenantId, session.userId);
  if (!user?.active) {
    await revokeSessions(ctx, [session.id], 'user-inactive');
    throw invalidRefreshToken();
  }
  return { ...(await signFor(ctx, user, session.id, now)), refreshToken: child, user };
}

/** A token the rotating write refused: honour the grace window, or revoke the family on reuse. */
async function settleNotCurrent(
  ctx: IdentityContext,
  sessionId: string,
  presented: { hash: string; childHash: string },
  now: Date,
): Promise<Session> {
  // Twice at most: a grace write can lose a race with a rotation, and then the answer changes.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const session = await ctx.sessions.find(sessionId);
    if (!session) throw invalidRefreshToken();
    const verdict = classifyPresentation(session, presented, now, ctx.refreshPolicy, ctx.hasher.equal);
    if (verdict === 'GRACE') {
      const honoured = await ctx.sessions.honourGrace(
        sessionId,
        presented.hash,
        presented.childHash,
        ctx.refreshPolicy.maxGraceUses,
      );
      if (honoured) return honoured;
      continue;
    }
    if (verdict === 'REUSE') await revokeHeld(ctx, [sessionId], 'reuse');
    throw invalidRefreshToken();
  }
  throw invalidRefreshToken();
}

/**
 * Ends sessions: first in the database (no refresh works any more), then in Redis (their access
 * tokens are refused by the gateway from this moment). A Redis failure fails the call, so a
 * retried logout completes it.
 */
export async function revokeSessions(
  ctx: IdentityContext,
  sessionIds: readonly string[],
  reason: RevocationReason,
): Promise<void> {
  const now = ctx.now();
  for (const id of sessionIds)
    await ctx.locks.run(`session:${id}`, () => ctx.sessions.revoke(id, reason, now));
  await ctx.revoker.revoke(sessionIds);
}

/** revokeSessions for a caller that already holds the sessions' locks. */
async function revokeHeld(
  ctx: IdentityContext,
  sessionIds: readonly string[],
  reason: RevocationReason,
): Promise<void> {
  const now = ctx.now();
  for (const id of sessionIds) await ctx.sessions.revoke(id, reason, now);
  await ctx.revoker.revoke(sessionIds);
}

async function signFor(ctx: IdentityContext, user: User, sessionId: string, now: Date) {
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
