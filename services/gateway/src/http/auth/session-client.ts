import type { FastifyRequest } from 'fastify';

/** Longer user agents are cut here already (identity keeps 512 characters). */
const MAX_USER_AGENT_LENGTH = 512;

/**
 * Who is opening a session, as the gateway sees it: the user agent and the client address
 * (after the trusted proxy hops). Identity records both on the session for the user's list of
 * sessions; neither decides anything.
 */
export function sessionClientOf(request: FastifyRequest): { userAgent: string; address: string } {
  const userAgent = request.headers['user-agent'];
  return {
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, MAX_USER_AGENT_LENGTH) : '',
    address: request.ip,
  };
}
