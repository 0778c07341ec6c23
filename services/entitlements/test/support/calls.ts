import { isRemoteCallError, type RemoteCallError } from '@tap/grpc-kit';
import type { TestBed } from './test-bed.js';

/** Call settings that authenticate as an owner of `tenantId` (a real signed token). */
export async function as(bed: TestBed, tenantId: string): Promise<{ authorization: string }> {
  return { authorization: await bed.tokens.bearer(tenantId) };
}

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
