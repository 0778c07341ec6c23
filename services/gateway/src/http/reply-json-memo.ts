import type { FastifyReply } from 'fastify';

/** What Fastify sends with a body its schema serialiser wrote. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The serialised 200 answer built from `source`; see jsonBodyMemo. */
export type JsonBody<S extends object> = (
  reply: FastifyReply,
  source: S,
  build: (source: S) => unknown,
) => Buffer;

/**
 * One route's memo of its serialised answer per decoded gRPC reply. The clients memoise the
 * replies of idempotent reads (clients.ts): equal reply bytes give the same frozen object, so a
 * read whose reply did not change gets the bytes written for the first caller that saw it, and
 * neither the mapping, the schema serialiser nor the string-to-bytes step runs again. The body is
 * exactly what the route's response schema serialiser produces (reply.serialize): sent with
 * sendJsonBody, callers see the same bytes and headers as from `reply.send(build(source))`.
 *
 * Keyed weakly by the reply object, so an entry lives as long as the clients' bounded memo keeps
 * that reply, and a reply of another tenant or a newer one of the same tenant (other bytes, so
 * another object) never meets it. Only frozen replies are remembered (the memo's; one that can
 * still change is serialised every time), and `build` must depend on the reply alone, never on
 * the request: the same reply object always gets the same body. One memo per route, so two routes
 * that map the same message differently never share.
 */
export function jsonBodyMemo<S extends object>(): JsonBody<S> {
  const bodies = new WeakMap<S, Buffer>();
  return (reply, source, build) => {
    if (!Object.isFrozen(source)) return asBytes(reply.serialize(build(source)));
    let body = bodies.get(source);
    if (body === undefined) {
      body = asBytes(reply.serialize(build(source)));
      bodies.set(source, body);
    }
    return body;
  };
}

/** Sends a body the route's schema serialiser wrote, with Fastify's JSON content type. */
export function sendJsonBody(reply: FastifyReply, body: Buffer): FastifyReply {
  return reply.type(JSON_CONTENT_TYPE).send(body);
}

function asBytes(serialised: string | ArrayBuffer | Buffer): Buffer {
  if (typeof serialised === 'string') return Buffer.from(serialised, 'utf8');
  return Buffer.isBuffer(serialised) ? serialised : Buffer.from(serialised);
}
