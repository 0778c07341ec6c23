import type { Metadata } from '@grpc/grpc-js';
import { bearerFromMetadata } from '@tap/grpc-kit';
import { InvalidTokenError, type AccessClaims, type TokenVerifier } from '@tap/tokens';
import { authErrors } from './errors.js';

/**
 * The verified claims of the caller's access token. Every service does this itself (zero
 * trust): the tenant always comes from a token it verified, never from the request body.
 */
export async function authenticate(metadata: Metadata, verifier: TokenVerifier): Promise<AccessClaims> {
  const token = bearerFromMetadata(metadata);
  if (!token) throw authErrors.create('TOKEN_MISSING');
  try {
    return await verifier.verify(token);
  } catch (error) {
    if (error instanceof InvalidTokenError) throw authErrors.create('TOKEN_INVALID', { cause: error });
    throw error;
  }
}
