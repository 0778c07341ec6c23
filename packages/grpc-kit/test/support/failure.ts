import { RemoteCallError } from '../../src/index.js';

/** The RemoteCallError a call rejected with; fails the test if it resolved or failed otherwise. */
export async function failure(promise: Promise<unknown>): Promise<RemoteCallError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RemoteCallError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}
