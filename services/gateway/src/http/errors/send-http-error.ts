import type { FastifyReply } from 'fastify';
import type { HttpError } from './http-error.js';

/** Answers `error`: its headers, its status, its body. The one place an error reaches the wire. */
export function sendHttpError(reply: FastifyReply, error: HttpError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers ?? {})) void reply.header(name, value);
  return reply.status(error.status).send(error.body);
}
