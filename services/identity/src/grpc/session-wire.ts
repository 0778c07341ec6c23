import type { SessionClient__Output } from '@tap/contracts';
import type { SessionClient } from '../domain/session.js';
import type { IssuedSession } from '../operations/open-session.js';
import { userToWire } from './wire.js';

/** The client the gateway saw, as the operations take it (absent on older gateways). */
export const sessionClientOf = (
  client: SessionClient__Output | null | undefined,
): SessionClient | undefined =>
  client ? { userAgent: client.userAgent, address: client.address } : undefined;

/** An opened session as SessionTokens. */
export const signedInToWire = (issued: IssuedSession) => ({
  accessToken: issued.accessToken,
  expiresIn: issued.expiresIn,
  refreshToken: issued.refreshToken,
  user: userToWire(issued.user),
});
