import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRateLimitRedis, type RateLimitRedis } from '@tap/ratelimit';
import { Readiness } from '@tap/runtime';
import { createLogger } from '@tap/telemetry';
import { infraUrls, testNamespace } from '@tap/testkit';
import { createTokenVerifier, generateSigningKey } from '@tap/tokens';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import type { ServiceClients } from '../src/clients.js';
import { unreachableServiceClients } from './support/unreachable-clients.js';
import { CONSOLE_CSP, CONSOLE_LANDINGS } from '../src/http/console/console-plugin.js';
import { redisSessionRevocations } from '../src/session-revocations.js';

const INDEX =
  '<!doctype html><title>console</title><script type="module" src="/console/assets/app-1a2b.js"></script>';
const SCRIPT = 'console.log("app");';
const OUTSIDE = 'file-content-outside-the-build';

let dir: string;
let clients: ServiceClients;
let redis: RateLimitRedis;
const apps: FastifyInstance[] = [];

async function gatewayWith(consoleDir: string | undefined): Promise<FastifyInstance> {
  const key = await generateSigningKey();
  const app = await buildApp({
    config: { bodyLimitBytes: 65_536, trustProxyHops: 0, consoleDir },
    clients,
    verifier: createTokenVerifier({
      issuer: 'https://identity.console-test',
      audience: 'tap-api',
      fetchJwks: async () => ({ keys: [key.publicJwk] }),
    }),
    revocations: redisSessionRevocations(redis, `${testNamespace('console')}:rev`),
    readiness: new Readiness(),
    logger: createLogger({ service: 'console-test', level: 'silent' }),
  });
  apps.push(app);
  return app;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tap-console-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), INDEX);
  await writeFile(join(dir, 'assets', 'app-1a2b.js'), SCRIPT);
  await writeFile(join(tmpdir(), 'tap-console-outside.txt'), OUTSIDE);
  redis = createRateLimitRedis(infraUrls().redisUrl, { commandTimeout: 2_000 });
  // No service answers here: these routes never call one.
  clients = await unreachableServiceClients();
});

afterAll(async () => {
  for (const app of apps) await app.close();
  clients?.close();
  await redis?.quit();
  await rm(dir, { recursive: true, force: true });
});

describe('the web console on the gateway origin', () => {
  it('serves the page at /console/ and at every console path, never cached, under a strict CSP', async () => {
    const app = await gatewayWith(dir);
    for (const url of ['/console/', '/console/journey', '/console/api-access', '/console/no-such-page']) {
      const response = await app.inject({ method: 'GET', url });
      expect([url, response.statusCode]).toEqual([url, 200]);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toBe(INDEX);
      expect(response.headers['content-security-policy']).toBe(CONSOLE_CSP);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).not.toContain('unsafe-inline');
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
  });

  it('serves the same page where the magic-link mail and the SSO redirects land', async () => {
    const app = await gatewayWith(dir);
    for (const url of [
      '/auth/magic-link',
      '/auth/sso/confirm-email',
      '/auth/sso/pending-approval',
      '/auth/sso/error?reason=invalid_state',
    ]) {
      const response = await app.inject({ method: 'GET', url });
      expect([url, response.statusCode, response.body]).toEqual([url, 200, INDEX]);
      expect(response.headers['content-security-policy']).toBe(CONSOLE_CSP);
    }
  });

  it('redirects /console to /console/ (relative asset paths resolve under it)', async () => {
    const app = await gatewayWith(dir);
    const response = await app.inject({ method: 'GET', url: '/console' });
    expect(response.statusCode).toBe(302);
    expect(response.headers['location']).toBe('/console/');
  });

  it('redirects the origin root to /console/, for GET and HEAD alike', async () => {
    const app = await gatewayWith(dir);
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await app.inject({ method, url: '/' });
      expect([method, response.statusCode, response.headers['location']]).toEqual([method, 302, '/console/']);
    }
    const post = await app.inject({ method: 'POST', url: '/' });
    expect([post.statusCode, post.headers['allow']]).toEqual([405, 'GET, HEAD']);
  });

  it('serves hashed assets for a year; a missing asset is the JSON 404, not the page', async () => {
    const app = await gatewayWith(dir);
    const asset = await app.inject({ method: 'GET', url: '/console/assets/app-1a2b.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.body).toBe(SCRIPT);
    expect(asset.headers['cache-control']).toMatch(/max-age=31536000.*immutable/);
    const missing = await app.inject({ method: 'GET', url: '/console/assets/nope.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ success: false, error: { code: 'ROUTE_NOT_FOUND' } });
  });

  it('never serves a file outside the build, whatever the path encodes', async () => {
    const app = await gatewayWith(dir);
    for (const url of [
      '/console/assets/../../tap-console-outside.txt',
      '/console/assets/..%2f..%2ftap-console-outside.txt',
      '/console/assets/%2e%2e/%2e%2e/tap-console-outside.txt',
      '/console/assets/.hidden',
    ]) {
      const response = await app.inject({ method: 'GET', url });
      expect([url, response.body.includes(OUTSIDE)]).toEqual([url, false]);
      expect([url, response.statusCode < 500]).toEqual([url, true]);
    }
  });

  it('answers a malformed path under /console with a 4xx in the API error shape, never a 500', async () => {
    const app = await gatewayWith(dir);
    for (const url of ['/console/%E0%A4%A', '/console/assets/%', '/auth/sso/error?reason=%']) {
      const response = await app.inject({ method: 'GET', url });
      expect([url, response.statusCode < 500]).toEqual([url, true]);
      if (response.statusCode >= 400)
        expect([url, response.json<{ success: boolean }>().success]).toEqual([url, false]);
    }
  });

  it('keeps the pages out of the API contract', async () => {
    const app = await gatewayWith(dir);
    const document = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<{
      paths: Record<string, unknown>;
    }>();
    const paths = Object.keys(document.paths);
    expect(paths.length).toBeGreaterThan(0);
    // The document's paths are relative to /api/v1: the pages (/console, the landings) are not there.
    const landings: readonly string[] = CONSOLE_LANDINGS;
    expect(paths.filter((p) => p.startsWith('/console') || landings.includes(p))).toEqual([]);
  });

  it('serves nothing at /console/ when the console is not built or is switched off', async () => {
    for (const consoleDir of [join(dir, 'not-built'), undefined]) {
      const app = await gatewayWith(consoleDir);
      for (const url of ['/console/', '/']) {
        const response = await app.inject({ method: 'GET', url });
        expect([url, response.statusCode]).toEqual([url, 404]);
        expect(response.json()).toMatchObject({ error: { code: 'ROUTE_NOT_FOUND' } });
      }
    }
  });
});
