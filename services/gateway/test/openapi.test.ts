import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { createRateLimiter, createRateLimitRedis, type RateLimitRedis } from '@tap/ratelimit';
import { Readiness } from '@tap/runtime';
import { createLogger } from '@tap/telemetry';
import { infraUrls, testNamespace } from '@tap/testkit';
import { createTokenVerifier, generateSigningKey } from '@tap/tokens';
import { Validator } from '@seriousme/openapi-schema-validator';
import { API_SCOPES, CAN_ACTION_NAMES, MILESTONE_STATUSES, ROLES, TIER_CODES } from '@tap/contracts';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { buildApp } from '../src/app.js';
import type { ServiceClients } from '../src/clients.js';
import { unreachableServiceClients } from './support/unreachable-clients.js';
import { redisSessionRevocations } from '../src/session-revocations.js';
import { redisSsoStateStore } from '../src/sso-states.js';

interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface BodyMedia {
  schema: BodySchema;
  example?: Record<string, unknown>;
}
interface BodySchema {
  examples?: Record<string, unknown>[];
  properties?: Record<string, unknown>;
  required?: string[];
}
interface DocumentedParameter {
  name: string;
  in: string;
  example?: unknown;
  schema: { examples?: unknown[]; pattern?: string; minLength?: number; maxLength?: number };
}
interface Document {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string }> };
}

const routes: RouteOptions[] = [];
let app: FastifyInstance;
let clients: ServiceClients;
let redis: RateLimitRedis;
let served: Document;

/** `/a/:id/b` as OpenAPI writes it: `/a/{id}/b`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const methodsOf = (route: RouteOptions) => (Array.isArray(route.method) ? route.method : [route.method]);

beforeAll(async () => {
  const namespace = testNamespace('openapi');
  const key = await generateSigningKey();
  redis = createRateLimitRedis(infraUrls().redisUrl, { commandTimeout: 2_000 });
  // No service answers on these addresses: the document needs the routes, not their callees.
  clients = await unreachableServiceClients();
  app = await buildApp({
    config: {
      bodyLimitBytes: 65_536,
      trustProxyHops: 0,
      browser: {
        allowedOrigins: ['https://app.openapi-test.example'],
        cookieDomain: undefined,
        sso: {
          appUrl: 'https://app.openapi-test.example',
          publicApiUrl: 'http://127.0.0.1/api/v1',
          providers: [{ key: 'corp', issuer: 'http://127.0.0.1:9', clientId: 'c', clientSecret: 's' }],
        },
      },
    },
    clients,
    verifier: createTokenVerifier({
      issuer: 'https://identity.openapi-test',
      audience: 'tap-api',
      fetchJwks: async () => ({ keys: [key.publicJwk] }),
    }),
    readiness: new Readiness(),
    logger: createLogger({ service: 'openapi-test', level: 'silent' }),
    revocations: redisSessionRevocations(redis, `${namespace}:rev`),
    auth: {
      limiter: createRateLimiter({ redis, keyPrefix: namespace }),
      ssoStates: redisSsoStateStore(redis, `${namespace}:sso`),
    },
    onRoute: (route) => routes.push(route),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`, {
    signal: AbortSignal.timeout(10_000),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  served = (await response.json()) as Document;
});

afterAll(async () => {
  await app?.close();
  clients?.close();
  await redis?.quit();
});

describe('GET /api/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(served.openapi).toBe('3.1.0');
    const result = await new Validator().validate(
      structuredClone(served) as unknown as Parameters<Validator['validate']>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  // The interface's base URL carries /api/v1: a generated client takes it as its base URL.
  it('has the one server /api/v1, every path relative to it and the probes left out', () => {
    expect(served.servers.map((server) => server.url)).toEqual(['/api/v1']);
    const paths = Object.keys(served.paths);
    expect(paths.filter((path) => path.startsWith('/api/'))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(['/tenant', '/oauth/token', '/openapi.json']));
    expect(paths.filter((path) => path === '/healthz' || path === '/readyz')).toEqual([]);
  });

  it('lists every route the gateway registered under /api/v1, each with an operationId and a tag', () => {
    // Hidden routes (the reference page and its files) are about the API, not part of it; the
    // probes are outside its base URL.
    const registered = routes
      .filter((route) => route.schema?.hide !== true && route.url.startsWith('/api/v1/'))
      .flatMap((route) => methodsOf(route).map((method) => ({ method, url: route.url })))
      .filter(({ method }) => method !== 'HEAD');
    expect(registered.length).toBeGreaterThan(30);
    const missing = registered.filter(
      ({ method, url }) =>
        !served.paths[openApiPath(url.slice('/api/v1'.length))]?.[method.toLowerCase()]?.operationId,
    );
    expect(missing).toEqual([]);
    const documented = Object.values(served.paths).flatMap((item) => Object.values(item));
    expect(documented).toHaveLength(registered.length);
    const ids = documented.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const operation of documented) expect(operation.tags?.length).toBe(1);
  });

  it('documents the error statuses of every operation with a JSON body schema', () => {
    for (const [path, item] of Object.entries(served.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        const statuses = Object.keys(operation.responses);
        expect([where, statuses.some((s) => /^[23]/.test(s))]).toEqual([where, true]);
        if (path !== '/openapi.json') {
          expect([where, statuses.includes('400')]).toEqual([where, true]);
          expect([where, statuses.includes('503')]).toEqual([where, true]);
        }
        for (const status of statuses.filter((s) => /^[45]/.test(s))) {
          const schema = operation.responses[status]?.content?.['application/json']?.schema;
          expect([where, status, schema === undefined]).toEqual([where, status, false]);
        }
      }
    }
  });

  it('marks bearer operations with their security and a 401/403/429, public ones with none', () => {
    const schemes = served.components.securitySchemes;
    expect(Object.keys(schemes).sort()).toEqual([
      'bearerAuth',
      'clientCredentials',
      'csrfToken',
      'sessionCookie',
    ]);
    const state = served.paths['/tenant/adoption/state']!['get']!;
    expect(state.security).toEqual([{ bearerAuth: [] }, { clientCredentials: [] }, { sessionCookie: [] }]);
    expect(Object.keys(state.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '429']));
    const create = served.paths['/tenant/adoption/success-plan']!['post']!;
    expect(create.security).toContainEqual({ sessionCookie: [], csrfToken: [] });
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '409', '413', '415', '429', '503']),
    );
    expect(served.paths['/oauth/token']!['post']!.security).toEqual([]);
  });

  it('gives the token endpoints the OAuth-style body and the form-encoded request', () => {
    const token = served.paths['/oauth/token']!['post'] as Operation & {
      requestBody: { content: Record<string, unknown> };
    };
    expect(Object.keys(token.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
    const unauthorized = token.responses['401']!.content!['application/json']!.schema as {
      required: string[];
    };
    expect(unauthorized.required).toEqual(['error', 'error_description']);
    const metered = served.paths['/entitlements/usage']!['get']!.responses['200'] as {
      headers: Record<string, unknown>;
    };
    expect(Object.keys(metered.headers)).toEqual(
      expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining']),
    );
    const tokenOk = token.responses['200'] as { headers: Record<string, unknown> };
    expect(Object.keys(tokenOk.headers)).toContain('X-RateLimit-Reset');
    const quota = served.paths['/entitlements/usage']!['get']!.responses['429'] as {
      headers: Record<string, unknown>;
    };
    expect(Object.keys(quota.headers)).toEqual(
      expect.arrayContaining([
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Retry-After',
      ]),
    );
  });

  it('gives every request body an example that names only declared fields and all required ones', () => {
    let bodies = 0;
    for (const [path, item] of Object.entries(served.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const content = (operation as { requestBody?: { content: Record<string, BodyMedia> } }).requestBody
          ?.content;
        if (!content) continue;
        bodies += 1;
        const media = Object.values(content)[0]!;
        const schema = media.schema;
        const where = `${method.toUpperCase()} ${path}`;
        // @fastify/swagger moves a single example to the media object's `example`.
        const example = media.example ?? schema.examples?.[0];
        expect([where, example === undefined]).toEqual([where, false]);
        const keys = Object.keys(example ?? {});
        expect([where, keys.filter((k) => !(k in (schema.properties ?? {})))]).toEqual([where, []]);
        expect([where, (schema.required ?? []).filter((k) => !keys.includes(k))]).toEqual([where, []]);
      }
    }
    expect(bodies).toBeGreaterThanOrEqual(10);
  });

  // The reference page fills a form body in field by field, from each field's own example.
  it("gives each field of the token endpoint's form its value from the request example", () => {
    const media = (
      served.paths['/oauth/token']!['post'] as unknown as {
        requestBody: { content: Record<string, BodyMedia> };
      }
    ).requestBody.content['application/x-www-form-urlencoded']!;
    const fields = media.schema.properties as Record<string, { examples?: unknown[] }>;
    for (const [name, value] of Object.entries(media.example ?? {})) {
      expect([name, fields[name]?.examples]).toEqual([name, [value]]);
    }
    expect(Object.keys(media.example ?? {})).toEqual(['grant_type', 'client_id', 'client_secret', 'scope']);
  });

  // The reference page (/api/v1/docs) shows these as the filled-in request of each operation.
  it('gives every path and query parameter an example that satisfies its schema', () => {
    // The provider's refusal parameters: an example would show a failed sign-in as the usage.
    const withoutExample = new Set(['error', 'error_description']);
    let parameters = 0;
    for (const [path, item] of Object.entries(served.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const declared = (operation as { parameters?: DocumentedParameter[] }).parameters ?? [];
        for (const parameter of declared.filter((p) => p.in === 'path' || p.in === 'query')) {
          if (withoutExample.has(parameter.name)) continue;
          parameters += 1;
          const where = `${method.toUpperCase()} ${path} ${parameter.name}`;
          const example = parameter.example ?? parameter.schema.examples?.[0];
          expect([where, typeof example]).toEqual([where, 'string']);
          const value = String(example);
          const { pattern, minLength = 0, maxLength = Infinity } = parameter.schema;
          expect([where, value.length >= minLength && value.length <= maxLength]).toEqual([where, true]);
          if (pattern) expect([where, new RegExp(pattern, 'u').test(value)]).toEqual([where, true]);
        }
      }
    }
    expect(parameters).toBeGreaterThanOrEqual(10);
  });
});

describe('the vocabularies and rules in the document', () => {
  /** The schema at `pointer` (JSON Pointer, `~1` for `/`) in the served document. */
  const at = (pointer: string): Record<string, unknown> =>
    pointer
      .split('/')
      .slice(1)
      .map((part) => part.replace(/~1/g, '/'))
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], served) as Record<
      string,
      unknown
    >;
  const json = 'content/application~1json/schema';

  // The lists are @tap/contracts', which the services' rules read too: the document cannot drift.
  it('names every accepted value of scopes, actions, roles, tiers and statuses as enums', () => {
    expect(at(`/paths/~1oauth~1clients/post/requestBody/${json}/properties/scopes/items`)['enum']).toEqual([
      ...API_SCOPES,
    ]);
    expect(at(`/paths/~1entitlements~1can/post/requestBody/${json}/properties/action`)['enum']).toEqual([
      ...CAN_ACTION_NAMES,
    ]);
    expect(at(`/paths/~1tenant~1invitations/post/requestBody/${json}/properties/role`)['enum']).toEqual([
      ...ROLES,
    ]);
    const usage = at(`/paths/~1entitlements~1usage/get/responses/200/${json}/properties/data/properties`);
    expect((usage['tier'] as { properties: { code: { enum: string[] } } }).properties.code.enum).toEqual([
      ...TIER_CODES,
    ]);
    const state = at(`/paths/~1tenant~1adoption~1state/get/responses/200/${json}/properties/data/properties`);
    const milestone = (state['milestones'] as { items: { properties: Record<string, { enum?: string[] }> } })
      .items.properties;
    expect(milestone['status']?.enum).toEqual([...MILESTONE_STATUSES]);
  });

  it("states the success plan's rules: non-blank text of 1–200, 1–20 objectives, a future target date", () => {
    const body = at(`/paths/~1tenant~1adoption~1success-plan/post/requestBody/${json}/properties`);
    const objectives = body['objectives'] as {
      minItems: number;
      maxItems: number;
      items: { properties: object };
    };
    expect([objectives.minItems, objectives.maxItems]).toEqual([1, 20]);
    const label = (objectives.items.properties as Record<string, Record<string, unknown>>)['label'];
    expect(label).toMatchObject({ minLength: 1, maxLength: 200, pattern: expect.any(String) });
    expect(body['title']).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(body['targetDate']).toMatchObject({ format: 'future-date-time' });
  });
});

describe('the SSO redirects in the document', () => {
  const SSO = '/auth/v2/sso';

  it('documents a 302 with Location and the query each route reads, with the configured provider keys', () => {
    for (const [path, names] of [
      [`${SSO}/{provider}/start`, ['returnTo', 'provider']],
      [`${SSO}/{provider}/callback`, ['code', 'state', 'iss', 'error', 'error_description', 'provider']],
    ] as const) {
      const operation = served.paths[path]!['get'] as Operation & {
        parameters: { name: string; example?: string }[];
      };
      const found = operation.responses['302'] as { headers?: Record<string, unknown>; content?: unknown };
      expect([path, Object.keys(found.headers ?? {})]).toEqual([path, ['Location', 'Cache-Control']]);
      expect(found.content).toBeUndefined();
      expect(operation.parameters.map((p) => p.name).sort()).toEqual([...names].sort());
      expect(operation.parameters.find((p) => p.name === 'provider')?.example).toBe('corp');
    }
  });

  // The schemas are the document's: the handlers judge the values and fail the flow with a 302
  // (spec: "Both SSO endpoints answer 302, not JSON"), never a JSON 400 from the validator.
  it.each([
    ['a repeated returnTo', `${SSO}/corp/start?returnTo=/a&returnTo=/b`, 'invalid_return_to'],
    ['an over-long returnTo', `${SSO}/corp/start?returnTo=/${'a'.repeat(600)}`, 'invalid_return_to'],
    [
      'a returnTo that is no path',
      `${SSO}/corp/start?returnTo=https%3A%2F%2Fevil.example`,
      'invalid_return_to',
    ],
    ['a provider key out of pattern', `${SSO}/Not_A_Key/start`, 'unknown_provider'],
    ['a provider key out of pattern (callback)', `${SSO}/Not_A_Key/callback?state=s`, 'unknown_provider'],
    ['a repeated state', `${SSO}/corp/callback?state=a&state=b`, 'invalid_callback'],
    ['an over-long state', `${SSO}/corp/callback?state=${'s'.repeat(300)}`, 'invalid_state'],
    ['a non-ASCII code', `${SSO}/corp/callback?state=s&code=%C3%A9`, 'invalid_callback'],
    [
      'nine query parameters',
      `${SSO}/corp/callback?${Array.from({ length: 9 }, (_, i) => `p${i}=v`).join('&')}`,
      'invalid_callback',
    ],
  ])('answers %s with a 302 to the error page', async (_what, url, reason) => {
    const response = await app.inject({ method: 'GET', url: `/api/v1${url}` });
    expect([response.statusCode, response.headers['location']]).toEqual([
      302,
      `https://app.openapi-test.example/auth/sso/error?reason=${reason}`,
    ]);
    expect(response.body).toBe('');
  });
});
