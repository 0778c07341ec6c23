import type { HashPurpose } from './ports/keyed-hasher.js';
import { identityErrors } from '../domain/errors.js';
import { formatRefreshToken, parseRefreshToken } from '../domain/refresh-token.js';
import {
  classifyPresentation,
  currentChildIndex,
  REFRESH_TOKEN_TTL_MS,
  type PresentedToken,
  type RevocationReason,
  type Session,
  type SessionChannel,
} from '../domain/session.js';
import type { IdentityContext } from './context.js';
import { signFor, type IssuedSession } from './open-session.js';
import { revokeSessions } from './revoke-sessions.js';

const invalidRefreshToken = () => identityErrors.create('REFRESH_TOKEN_INVALID');

/**
 * Exchanges a refresh token for a new pair; the presented one is rotated out. The child is
 * derived from the parent under a server key, so re-presenting the immediate parent inside the
 * grace window yields the very same child without the child ever being stored.
 */
export async function refreshSession(
  ctx: IdentityContext,
  refreshToken: string,
  channel: SessionChannel = 'bearer',
): Promise<IssuedSession> {
  const parts = parseRefreshToken(refreshToken);
  if (!parts) throw invalidRefreshToken();
  const now = ctx.now();
  const views = viewsOf(ctx, parts.sessionId, refreshToken);
  const [current] = views;
  const { session, child } = await ctx.locks.run(`session:${parts.sessionId}`, async () => {
    // The child is always derived and hashed under the current secret, also when the parent was
    // stored under the previous one: nothing new is hashed with a secret being rotated out.
    const rotated = await ctx.sessions.rotate(
      parts.sessionId,
      [current.hash, ...views.slice(1).map((view) => view.hash)],
      { hash: current.childHash, expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS) },
      now,
    );
    return rotated
      ? { session: rotated, child: current.child }
      : await settleNotCurrent(ctx, parts.sessionId, views, now);
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

type TokenView = PresentedToken[number] & { readonly child: string };

/**
 * The presented token under the current secret and, while TOKEN_HASH_SECRET_PREVIOUS is set,
 * under the previous one: its hash, the child that secret derives from it, and the child's hash.
 */
function viewsOf(
  ctx: IdentityContext,
  sessionId: string,
  refreshToken: string,
): readonly [TokenView, ...TokenView[]] {
  const viewUnder = (digest: (purpose: HashPurpose, value: string) => string): TokenView => {
    const child = formatRefreshToken({ sessionId, secret: digest('refresh-token-child', refreshToken) });
    return { hash: digest('refresh-token', refreshToken), child, childHash: digest('refresh-token', child) };
  };
  const current = viewUnder(ctx.hasher.digest);
  if (ctx.hasher.previousDigest('refresh-token', refreshToken) === undefined) return [current];
  // A previous secret is configured (checked just above), so no digest below is undefined.
  return [current, viewUnder((purpose, value) => ctx.hasher.previousDigest(purpose, value) ?? '')];
}

/**
 * A token the rotating write refused: honour the grace window, or revoke the family on reuse.
 * A grace answer hands back the child that is current, under whichever secret derived it (a
 * replica still on the previous secret may have made it during a roll).
 */
async function settleNotCurrent(
  ctx: IdentityContext,
  sessionId: string,
  views: readonly TokenView[],
  now: Date,
): Promise<{ session: Session; child: string }> {
  // Twice at most: a grace write can lose a race with a rotation, and then the answer changes.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const session = await ctx.sessions.find(sessionId);
    if (!session) throw invalidRefreshToken();
    const verdict = classifyPresentation(session, views, now, ctx.refreshPolicy, ctx.hasher.equal);
    const current = views[currentChildIndex(session, views, ctx.hasher.equal)];
    if (verdict === 'GRACE' && current && session.previousHash !== null) {
      const honoured = await ctx.sessions.honourGrace(
        sessionId,
        session.previousHash,
        current.childHash,
        ctx.refreshPolicy.maxGraceUses,
      );
      if (honoured) return { session: honoured, child: current.child };
      continue;
    }
    if (verdict === 'REUSE') {
      await revokeHeld(ctx, [sessionId], 'reuse');
      // The family ends; the owner's log shows it (the token itself is never in the entry).
      await ctx.audit.record(session.tenantId, {
        actor: { type: 'user', id: session.userId },
        action: 'session.refresh_reuse_detected',
        target: { type: 'session', id: sessionId },
        outcome: 'FAILURE',
        reason: 'REFRESH_TOKEN_REUSED',
      });
    }
    throw invalidRefreshToken();
  }
  throw invalidRefreshToken();
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
