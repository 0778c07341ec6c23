import type { FastifyReply } from 'fastify';

/** What Fastify sends with a body its schema serialiser wrote. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The route's 200 answer for `payload` as bytes, written by its response schema serialiser
 * (reply.serialize): the body the gateway keeps per tenant (http/answer-cache.ts) and sends with
 * sendJsonBody, so a kept answer and a fresh one are the same bytes with the same headers.
 */
export function serialisedBody(reply: FastifyReply, payload: unknown): Buffer {
  const serialised: string | ArrayBuffer | Buffer = reply.serialize(payload);
  if (typeof serialised === 'string') return Buffer.from(serialised, 'utf8');
  return Buffer.isBuffer(serialised) ? serialised : Buffer.from(serialised);
}

/** Sends a body the route's schema serialiser wrote, with Fastify's JSON content type. */
export function sendJsonBody(reply: FastifyReply, body: Buffer): FastifyReply {
  return reply.type(JSON_CONTENT_TYPE).send(body);
}
