import { isRemoteCallError, type RemoteCallError } from '@tap/grpc-kit';

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
