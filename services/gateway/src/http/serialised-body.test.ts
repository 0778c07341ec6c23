import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { sendJsonBody, serialisedBody } from './serialised-body.js';

interface Source {
  readonly tenant: string;
  readonly score: number | null;
  readonly note: string;
}

// A route with a response schema, as every read route has: `note` is not in it, so the schema
// serialiser drops it, and `score` is nullable.
const response = {
  200: Type.Object({
    success: Type.Literal(true),
    data: Type.Object({ tenant: Type.String(), score: Type.Union([Type.Integer(), Type.Null()]) }),
  }),
};

describe('serialisedBody and sendJsonBody', () => {
  let app: FastifyInstance;
  let base: string;
  const sources = new Map<string, Source>();

  beforeAll(async () => {
    app = Fastify();
    app.get<{ Params: { id: string } }>('/read/:id', { schema: { response } }, async (request, reply) =>
      sendJsonBody(reply, serialisedBody(reply, { success: true, data: sources.get(request.params.id)! })),
    );
    app.get<{ Params: { id: string } }>('/plain/:id', { schema: { response } }, async (request) => ({
      success: true,
      data: sources.get(request.params.id)!,
    }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => app.close());

  const get = async (path: string) => {
    const response = await fetch(`${base}${path}`);
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      length: response.headers.get('content-length'),
      text: await response.text(),
    };
  };

  it('sends exactly the bytes and headers the schema serialiser gives, as a plain reply.send would', async () => {
    sources.set('a', { tenant: 'a', score: null, note: 'not in the schema' });
    const plain = await get('/plain/a');
    const first = await get('/read/a');
    const second = await get('/read/a');
    expect(first).toEqual(plain);
    expect(second).toEqual(plain);
    expect(plain.type).toBe('application/json; charset=utf-8');
    expect(plain.text).toBe('{"success":true,"data":{"tenant":"a","score":null}}');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    sources.set('h', { tenant: 'h', score: 1, note: '' });
    const body = await get('/read/h');
    const head = await fetch(`${base}/read/h`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(body.type);
    expect(head.headers.get('content-length')).toBe(body.length);
    expect(await head.text()).toBe('');
  });

  it('serialises each answer as it is now', async () => {
    const open = { tenant: 'c', score: 1, note: '' };
    sources.set('c', open);
    expect((await get('/read/c')).text).toBe('{"success":true,"data":{"tenant":"c","score":1}}');
    open.score = 2;
    expect((await get('/read/c')).text).toBe('{"success":true,"data":{"tenant":"c","score":2}}');
  });
});
