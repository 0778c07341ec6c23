import type { Session } from '../domain/session.js';
import type { IdentityContext } from './context.js';
import type { SignedInUser } from './signed-in-user.js';

/** One of the caller's sessions as their list shows it. */
export interface SessionView {
  readonly id: string;
  readonly userAgent: string;
  readonly address: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly current: boolean;
}

const toView = (session: Session, currentId: string): SessionView => ({
  id: session.id,
  userAgent: session.client?.userAgent ?? '',
  address: session.client?.address ?? '',
  createdAt: session.createdAt,
  lastUsedAt: session.lastUsedAt ?? null,
  current: session.id === currentId,
});

/** The caller's own sessions that can still be refreshed, newest first; the calling one marked. */
export async function listSessions(ctx: IdentityContext, caller: SignedInUser): Promise<SessionView[]> {
  const live = await ctx.sessions.listLive(caller.tenantId, caller.userId, ctx.now());
  return live.map((session) => toView(session, caller.sessionId));
}
