import type { HandlerLogger } from '@tap/grpc-kit';
import type { TokenVerifier } from '@tap/tokens';
import type { IdentityContext } from '../operations/context.js';
import type { InvitationMail } from '../operations/invitation-token.js';
import type { MagicLinkMail } from '../operations/magic-link.js';

/** What every group of identity's handlers needs. */
export interface IdentityHandlerDeps {
  readonly ctx: IdentityContext;
  /** Signature, claims and the revocation list: a signed-out session's token is refused. */
  readonly verifier: TokenVerifier;
  /**
   * Signature and claims only, for Logout: signing out a session that is already revoked is a
   * harmless no-op, so a retried logout succeeds.
   */
  readonly signatureVerifier: TokenVerifier;
  /** OPERATOR_TOKEN and, while it is being rotated, OPERATOR_TOKEN_PREVIOUS. */
  readonly operatorTokens: readonly string[];
  /** `warn` for operator actions worth a line of their own (an emergency key rotation). */
  readonly logger: HandlerLogger & { warn(object: object, message: string): void };
  /** How long a replaced signing key keeps verifying. */
  readonly keyRetentionMs: number;
  /** Where magic links are mailed; without it no link is sent (and that is logged). */
  readonly mail?: MagicLinkMail | undefined;
  /** Where invitation links are mailed; without it inviting answers MAIL_NOT_CONFIGURED. */
  readonly invitationMail?: InvitationMail | undefined;
}
