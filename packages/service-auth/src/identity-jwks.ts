import { contracts, type IdentityServiceClient } from '@tap/contracts';
import { createClient, unaryCall } from '@tap/grpc-kit';
import type { JSONWebKeySet, JWK } from 'jose';

/** A JWKS fetcher over identity's gRPC `GetJwks`, for `createTokenVerifier`. */
export function identityJwksFetcher(identityAddress: string): {
  fetch: () => Promise<JSONWebKeySet>;
  close: () => void;
} {
  const client: IdentityServiceClient = createClient(contracts().identity.IdentityService, identityAddress);
  return {
    fetch: async () => {
      const response = await unaryCall(client, 'GetJwks', {});
      return { keys: response.keys.map((key): JWK => ({ ...key })) };
    },
    close: () => client.close(),
  };
}
