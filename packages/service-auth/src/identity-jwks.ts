import { contracts, type IdentityServiceClient } from '@tap/contracts';
import { createClient, unaryCall, type ServiceTls } from '@tap/grpc-kit';
import { createTokenVerifier, type KeySetVerifier, type TokenVerifierOptions } from '@tap/tokens';
import type { JSONWebKeySet, JWK } from 'jose';

/** A JWKS fetcher over identity's gRPC `GetJwks`, for `createTokenVerifier`. */
export function identityJwksFetcher(
  identityAddress: string,
  tls: ServiceTls,
): {
  fetch: () => Promise<JSONWebKeySet>;
  close: () => void;
} {
  const client: IdentityServiceClient = createClient(
    contracts().identity.IdentityService,
    identityAddress,
    tls,
  );
  return {
    fetch: async () => {
      const response = await unaryCall(client, 'GetJwks', {});
      return { keys: response.keys.map((key): JWK => ({ ...key })) };
    },
    close: () => client.close(),
  };
}

/**
 * The token verifier of a service that trusts identity's keys: the JWKS over gRPC, refreshed
 * every `jwksRefreshIntervalMs`, and a failed refresh logged (the last key set is kept, so the
 * keys may be going stale). `close()` stops the refresh and closes the identity client.
 */
export function identityTokenVerifier(
  identityAddress: string,
  tls: ServiceTls,
  tokens: Omit<TokenVerifierOptions, 'fetchJwks' | 'onRefreshError'>,
  logger: { warn(object: object, message: string): void },
): { verifier: KeySetVerifier; close: () => void } {
  const jwks = identityJwksFetcher(identityAddress, tls);
  const verifier = createTokenVerifier({
    ...tokens,
    fetchJwks: jwks.fetch,
    onRefreshError: (err) => logger.warn({ err }, 'JWKS refresh failed; verifying with the last key set'),
  });
  return {
    verifier,
    close: () => {
      verifier.close();
      jwks.close();
    },
  };
}
