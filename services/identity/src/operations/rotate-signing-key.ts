import type { RotationResult } from '../keys/key-ring.js';
import type { IdentityContext } from './context.js';

/** Where an emergency rotation is written down: it is an operator act worth a line of its own. */
export interface RotationAudit {
  warn(object: object, message: string): void;
}

/**
 * Makes a new signing key current. Normally the previous key keeps verifying for `retentionMs`;
 * `retirePreviousNow` (a leaked key) retires every earlier key at once, and says so in the log.
 */
export async function rotateSigningKey(
  ctx: Pick<IdentityContext, 'keyRing' | 'now'>,
  request: { readonly retirePreviousNow: boolean; readonly retentionMs: number },
  audit: RotationAudit,
): Promise<RotationResult> {
  if (!request.retirePreviousNow) return ctx.keyRing.rotate(ctx.now(), request.retentionMs);
  const rotated = await ctx.keyRing.rotateRetiringNow(ctx.now());
  audit.warn(
    { kid: rotated.kid, retiredKids: rotated.retiredKids },
    'emergency signing-key rotation: earlier keys retired at once',
  );
  return rotated;
}
