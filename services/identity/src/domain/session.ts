/** Refresh tokens live 7 days from their issue (spec: "Other constants"). */
export const REFRESH_TOKEN_TTL_MS = 7 * 24 * 3_600_000;
/**
 * How many times the immediate parent may be re-presented within the grace window. Every tab of
 * a browser refreshes on its own timer, and after a sleep or a network change they all fire at
 * once: ten tabs are one rotation and nine re-presentations, and one more spares a lost answer
 * retried. With 3 (before issue #22) five tabs signed the user out. A thief gains nothing from
 * the count: within the window, every re-presentation answers the same child, which the
 * legitimate holder already has.
 */
export const MAX_GRACE_USES = 10;

/** Where a session's refresh token is held; documents written before channels existed are bearer. */
export type SessionChannel = 'bearer' | 'cookie';

/** The wire's channel ('' is bearer); anything else is not a channel. */
export function parseChannel(value: string): SessionChannel | undefined {
  if (value === '' || value === 'bearer') return 'bearer';
  return value === 'cookie' ? 'cookie' : undefined;
}

/** Why a session stopped. */
export type RevocationReason =
  | 'logout'
  | 'reuse'
  | 'password-reset'
  | 'user-inactive'
  | 'wrong-channel'
  /** The user ended it from their list of sessions (one, or all the others). */
  | 'ended-by-user'
  /** An OWNER or ADMIN ended every session of the member. */
  | 'ended-by-manager'
  /** The account moved to another tenant by accepting an invitation. */
  | 'moved-tenant';

/** Longest user agent kept on a session; browsers send far less, the cap bounds the document. */
export const MAX_USER_AGENT_LENGTH = 512;
/** Longest client address kept (an IPv6 address with a zone fits). */
export const MAX_ADDRESS_LENGTH = 64;

/** Who opened a session, as the gateway saw it: shown to the user, never used for a decision. */
export interface SessionClient {
  readonly userAgent: string;
  readonly address: string;
}

/** The client as stored: control characters dropped, each field cut to its bound. */
export function sessionClient(
  raw: { userAgent?: string; address?: string } | null | undefined,
): SessionClient {
  const clean = (value: string | undefined, max: number) =>
    // By code point, so a cut never splits a surrogate pair.
    [...(value ?? '')]
      .filter((char) => char >= ' ' && char !== '\u007f')
      .slice(0, max)
      .join('');
  return {
    userAgent: clean(raw?.userAgent, MAX_USER_AGENT_LENGTH),
    address: clean(raw?.address, MAX_ADDRESS_LENGTH),
  };
}

/**
 * A sign-in session and its refresh-token family, in one document: rotation, reuse detection
 * and revocation are each one single-document write. Its id is the `sid` of every access token
 * it issues, so revoking the session revokes those too. `channel` says where its refresh token
 * lives: a bearer client's storage, or the HttpOnly cookie of /auth/v2 (docs/browser-sessions.md).
 */
export interface Session {
  readonly id: string;
  readonly tenantId: string;
  readonly userId: string;
  readonly channel: SessionChannel;
  readonly createdAt: Date;
  /** Keyed hash of the one refresh token that may be exchanged now. */
  readonly currentHash: string;
  readonly currentExpiresAt: Date;
  /** Keyed hash of the token the current one replaced, and when; for the grace window. */
  readonly previousHash: string | null;
  readonly rotatedAt: Date | null;
  readonly graceUses: number;
  readonly revokedAt: Date | null;
  readonly revokedReason: RevocationReason | null;
  /** Who opened it; absent on sessions opened before this was recorded. */
  readonly client?: SessionClient;
  /** The last refresh; absent or null until the first. */
  readonly lastUsedAt?: Date | null;
}

/** What presenting a refresh token that is not (or no longer) exchangeable amounts to. */
export type Presentation =
  | 'EXPIRED'
  | 'REVOKED'
  /** The immediate parent, again, soon enough: answer with the same child (lost response, two tabs). */
  | 'GRACE'
  /** Any other token of the family: stolen or replayed; the family is revoked. */
  | 'REUSE';

/** The grace rules for re-presented refresh tokens. */
export interface RefreshPolicy {
  readonly reuseGraceMs: number;
  readonly maxGraceUses: number;
}

/**
 * A presented refresh token as each configured secret sees it: its keyed hash, and the hash of
 * the child that secret derives from it. The current secret comes first; a second entry exists
 * only while TOKEN_HASH_SECRET_PREVIOUS is set, for a family last rotated under that secret.
 */
export type PresentedToken = readonly { readonly hash: string; readonly childHash: string }[];

/**
 * Classifies a token of `session` that the rotating write did not accept; `equal` compares
 * digests in constant time. Every configured secret's view is compared (none short-circuits):
 * the parent may have been stored under one secret and its child derived under another.
 */
export function classifyPresentation(
  session: Session,
  presented: PresentedToken,
  now: Date,
  policy: RefreshPolicy,
  equal: (a: string, b: string) => boolean,
): Presentation {
  if (session.revokedAt) return 'REVOKED';
  const hashes = presented.map((view) => view.hash);
  if (matchesAny(session.currentHash, hashes, equal)) return 'EXPIRED';
  const isParent = session.previousHash !== null && matchesAny(session.previousHash, hashes, equal);
  const inWindow =
    session.rotatedAt !== null && now.getTime() - session.rotatedAt.getTime() <= policy.reuseGraceMs;
  // Only while its child is still the current token: once the child was exchanged too, the
  // parent is two generations old and presenting it is reuse.
  const childIsCurrent = currentChildIndex(session, presented, equal) >= 0;
  if (isParent && inWindow && childIsCurrent && session.graceUses < policy.maxGraceUses) return 'GRACE';
  return 'REUSE';
}

/** Which view's child is the session's current token (the one a grace answer hands back again), or -1. */
export function currentChildIndex(
  session: Session,
  presented: PresentedToken,
  equal: (a: string, b: string) => boolean,
): number {
  let found = -1;
  for (const [index, view] of presented.entries())
    if (equal(session.currentHash, view.childHash) && found < 0) found = index;
  return found;
}

function matchesAny(stored: string, candidates: readonly string[], equal: (a: string, b: string) => boolean) {
  let matched = false;
  for (const candidate of candidates) matched = equal(stored, candidate) || matched;
  return matched;
}
