import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Type } from '@sinclair/typebox';
import { deepFreeze } from '@tap/grpc-kit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { jsonBodyMemo, sendJsonBody } from './reply-json-memo.js';

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

describe('jsonBodyMemo', () => {
  let app: FastifyInstance;
  let base: string;
  const sources = new Map<string, Source>();
  const builds = { n: 0 };

  beforeAll(async () => {
    app = Fastify();
    const bodyOf = jsonBodyMemo<Source>();
    app.get<{ Params: { id: string } }>('/read/:id', { schema: { response } }, async (request, reply) =>
      sendJsonBody(
        reply,
        bodyOf(reply, sources.get(request.params.id)!, (s) => {
          builds.n += 1;
          return { success: true, data: s };
        }),
      ),
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

  it('sends exactly the bytes and headers the schema serialiser gives, building them once per frozen reply', async () => {
    sources.set('a', deepFreeze({ tenant: 'a', score: null, note: 'not in the schema' }));
    const plain = await get('/plain/a');
    const first = await get('/read/a');
    const second = await get('/read/a');
    expect(first).toEqual(plain);
    expect(second).toEqual(plain);
    expect(plain.type).toBe('application/json; charset=utf-8');
    expect(plain.text).toBe('{"success":true,"data":{"tenant":"a","score":null}}');
    expect(builds.n).toBe(1);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    sources.set('h', deepFreeze({ tenant: 'h', score: 1, note: '' }));
    const body = await get('/read/h');
    const head = await fetch(`${base}/read/h`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(body.type);
    expect(head.headers.get('content-length')).toBe(body.length);
    expect(await head.text()).toBe('');
  });

  it('never sends one reply’s body for another, and serialises a reply that can still change every time', async () => {
    sources.set('b', deepFreeze({ tenant: 'b', score: 7, note: '' }));
    expect((await get('/read/b')).text).toBe('{"success":true,"data":{"tenant":"b","score":7}}');
    // A newer reply of the same tenant is another object: its own body.
    sources.set('b', deepFreeze({ tenant: 'b', score: 8, note: '' }));
    expect((await get('/read/b')).text).toBe('{"success":true,"data":{"tenant":"b","score":8}}');
    const open = { tenant: 'c', score: 1, note: '' };
    sources.set('c', open);
    const before = builds.n;
    expect((await get('/read/c')).text).toBe('{"success":true,"data":{"tenant":"c","score":1}}');
    open.score = 2;
    expect((await get('/read/c')).text).toBe('{"success":true,"data":{"tenant":"c","score":2}}');
    expect(builds.n).toBe(before + 2);
  });
});
