/**
 * The access-token side of revocation: marks session ids (`sid`) revoked in Redis, where the
 * gateway looks on every bearer request. Access tokens are stateless JWTs; without this they
 * would outlive a logout by up to 15 minutes.
 */
export interface SessionRevoker {
  revoke(sessionIds: readonly string[]): Promise<void>;
}
