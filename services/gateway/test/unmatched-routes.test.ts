import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRateLimitRedis, type RateLimitRedis } from '@tap/ratelimit';
import { Readiness } from '@tap/runtime';
import { createLogger } from '@tap/telemetry';
import { infraUrls, testNamespace } from '@tap/testkit';
import { createTokenVerifier, generateSigningKey } from '@tap/tokens';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../src/app.js';
import type { ServiceClients } from '../src/clients.js';
import { unreachableServiceClients } from './support/unreachable-clients.js';
import { redisSessionRevocations } from '../src/session-revocations.js';

let app: FastifyInstance;
let clients: ServiceClients;
let redis: RateLimitRedis;

beforeAll(async () => {
  redis = createRateLimitRedis(infraUrls().redisUrl, { commandTimeout: 2_000 });
  // No service answers here: a refused method never reaches one.
  clients = await unreachableServiceClients();
  const key = await generateSigningKey();
  app = await buildApp({
    config: { bodyLimitBytes: 65_536, trustProxyHops: 0 },
    clients,
    verifier: createTokenVerifier({
      issuer: 'https://identity.method-test',
      audience: 'tap-api',
      fetchJwks: async () => ({ keys: [key.publicJwk] }),
    }),
    revocations: redisSessionRevocations(redis, `${testNamespace('method')}:rev`),
    readiness: new Readiness(),
    logger: createLogger({ service: 'method-test', level: 'silent' }),
  });
});

afterAll(async () => {
  await app?.close();
  clients?.close();
  await redis?.quit();
});

type Method = InjectOptions['method'];

/** One request over a real socket: status, Allow and the body as text. */
function overTheWire(
  port: number,
  method: string,
  path: string,
  body?: { type: string; text: string },
): Promise<{ status: number; allow: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: body ? { 'content-type': body.type } : {} },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode ?? 0, allow: incoming.headers['allow'], text }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body?.text);
  });
}

async function ask(method: string, url: string, extra: Partial<InjectOptions> = {}) {
  const response = await app.inject({ method: method as Method, url, ...extra });
  return {
    status: response.statusCode,
    allow: response.headers['allow'],
    body:
      response.body.length > 0 ? response.json<{ success: boolean; error: { code: string } }>() : undefined,
  };
}

describe('a method a known path does not serve', () => {
  it.each([
    ['QUERY', '/api/v1/tenant'],
    ['PUT', '/api/v1/tenant/adoption/state'],
    ['DELETE', '/api/v1/tenant/adoption/state?x=1'],
    ['PROPFIND', '/api/v1/tenant'],
    ['PATCH', '/healthz'],
  ])('answers %s %s with 405 and Allow: GET, HEAD', async (method, url) => {
    expect(await ask(method, url)).toEqual({
      status: 405,
      allow: 'GET, HEAD',
      body: {
        success: false,
        error: { code: 'METHOD_NOT_ALLOWED', message: `${method} is not served here; use GET, HEAD` },
      },
    });
  });

  it('lists the methods of a path with parameters', async () => {
    const response = await ask('GET', '/api/v1/tenant/adoption/milestones/first-product/complete');
    expect(response).toMatchObject({
      status: 405,
      allow: 'POST',
      body: { error: { code: 'METHOD_NOT_ALLOWED' } },
    });
  });

  it('answers before the body is read: a bodyful QUERY never reaches JSON parsing', async () => {
    for (const headers of [
      { 'content-type': 'application/json' },
      { 'content-type': 'text/plain' },
      {},
    ] as Record<string, string>[]) {
      const response = await ask('QUERY', '/api/v1/tenant', { headers, payload: '{"not json' });
      expect([headers, response.status, response.body?.error.code]).toEqual([
        headers,
        405,
        'METHOD_NOT_ALLOWED',
      ]);
    }
    const tooLarge = await ask('POST', '/api/v1/tenant', {
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ pad: 'x'.repeat(70_000) }),
    });
    expect(tooLarge).toMatchObject({ status: 405, allow: 'GET, HEAD' });
  });

  it('answers the same over a real socket, a streamed bodyful QUERY included', async () => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const broken = { type: 'application/json', text: '{"not json' };
    expect(await overTheWire(port, 'QUERY', '/api/v1/tenant', broken)).toMatchObject({
      status: 405,
      allow: 'GET, HEAD',
      text: expect.stringContaining('"METHOD_NOT_ALLOWED"'),
    });
    expect(await overTheWire(port, 'PROPFIND', '/api/v1/tenant/adoption/state')).toMatchObject({
      status: 405,
      allow: 'GET, HEAD',
    });
    expect(await overTheWire(port, 'QUERY', '/api/v1/nowhere', broken)).toMatchObject({
      status: 404,
      allow: undefined,
      text: expect.stringContaining('"ROUTE_NOT_FOUND"'),
    });
  });

  it('answers without asking for a token, as an unknown path does', async () => {
    const response = await ask('DELETE', '/api/v1/tenant', { headers: { authorization: 'Bearer nonsense' } });
    expect(response).toMatchObject({ status: 405, body: { error: { code: 'METHOD_NOT_ALLOWED' } } });
  });

  it('agrees with the OpenAPI document: every path refuses PROPFIND and allows what it documents', async () => {
    const document = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<{
      servers?: { url: string }[];
      paths: Record<string, Record<string, unknown>>;
    }>();
    // Paths are relative to the first server's URL where the document names one.
    const base = document.servers?.[0]?.url ?? '';
    const paths = Object.entries(document.paths);
    expect(paths.length).toBeGreaterThan(10);
    for (const [path, operations] of paths) {
      const url = `${base}${path}`.replace(/\{[^}]+\}/g, 'x');
      const documented = Object.keys(operations).map((method) => method.toUpperCase());
      const response = await ask('PROPFIND', url);
      expect([url, response.status]).toEqual([url, 405]);
      const allowed = String(response.allow).split(', ');
      expect([url, documented.filter((method) => !allowed.includes(method))]).toEqual([url, []]);
    }
  });
});

describe('a path no route serves', () => {
  it.each([
    ['GET', '/api/v1/no-such-route'],
    ['QUERY', '/api/v1/no-such-route'],
    ['PUT', '/api/v1/tenant/no-such-thing'],
    ['PROPFIND', '/nowhere'],
  ])('answers %s %s with 404 ROUTE_NOT_FOUND and no Allow, whatever its body', async (method, url) => {
    for (const extra of [
      {},
      { headers: { 'content-type': 'application/json' }, payload: '{}' },
      { headers: { 'content-type': 'application/json' }, payload: '{"not json' },
    ]) {
      const response = await ask(method, url, extra);
      expect([extra, response]).toEqual([
        extra,
        {
          status: 404,
          allow: undefined,
          body: { success: false, error: { code: 'ROUTE_NOT_FOUND', message: `No route ${method} ${url}` } },
        },
      ]);
    }
  });
});
