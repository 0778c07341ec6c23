import { isRemoteCallError, type RemoteCallError } from '@tap/grpc-kit';
import type { TestTokens } from './test-tokens.js';

/** The RemoteCallError a call rejected with; fails the test if it resolved. */
export async function remoteError(call: Promise<unknown>): Promise<RemoteCallError> {
  try {
    await call;
  } catch (error) {
    if (isRemoteCallError(error)) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

/** Call settings that authenticate as an OWNER of `tenantId` (a real signed token of the bed's key). */
export async function as(
  bed: { readonly tokens: TestTokens },
  tenantId: string,
): Promise<{ authorization: string }> {
  return { authorization: await bed.tokens.bearer(tenantId) };
}
