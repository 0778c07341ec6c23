import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { ROUTE_TABLE, type RouteKey } from '@tap/gateway';
import { openIdentityFixtures, type IdentityFixtures } from '../support/identity-fixtures.js';
import { startSystem, type System } from '../support/system.js';

/*
 * Ambiguous credentials (issue #22): two Authorization headers, or a bearer token beside the
 * session cookie, are refused with 400 invalid_request on every route, before either is read.
 * Node's http client sends an array header value as several header lines, so these are the
 * duplicated headers a hostile client (or a confused proxy) puts on the wire.
 */

interface RawAnswer {
  readonly status: number;
  readonly body: unknown;
}

const invalidRequest = { error: 'invalid_request', error_description: expect.any(String) };

describe('ambiguous credentials', () => {
  let system: System;
  let fx: IdentityFixtures;
  let bearer: string;

  beforeAll(async () => {
    system = await startSystem('hostile_ambiguous');
    fx = await openIdentityFixtures(system);
    const owner = await fx.tenantWithOwner('Ambiguous Ltd');
    await system.setTier(owner.tenantId, 'CORE');
    bearer = `Bearer ${(await fx.signIn(owner)).accessToken}`;
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  const raw = (method: string, path: string, headers: OutgoingHttpHeaders): Promise<RawAnswer> =>
    new Promise((resolve, reject) => {
      const url = new URL(`/api/v1${path}`, system.baseUrl);
      const call = httpRequest(url, { method, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // Not JSON: kept as text for the assertion to show.
          }
          resolve({ status: response.statusCode ?? 0, body });
        });
      });
      call.on('error', reject);
      call.end();
    });

  // SSO is off in this system (no provider configured), so its routes are not registered; the
  // refusal is one hook over the whole /api/v1 scope, which they share when they are.
  const routes = (Object.keys(ROUTE_TABLE) as RouteKey[])
    .filter((key) => !key.includes('/auth/v2/sso/'))
    .map((key) => {
      const [method = 'GET', template = '/'] = key.split(' ');
      return { key, method, path: template.replace(/:[A-Za-z]+/g, 'ambiguous-id') };
    });

  it('answers a single bearer token as before', async () => {
    expect((await raw('GET', '/tenant', { authorization: bearer })).status).toBe(200);
  });

  it('refuses two Authorization headers (a valid bearer first) with 400 invalid_request on every route', async () => {
    for (const second of ['Basic Z2FyYmFnZTpnYXJiYWdl', 'garbage', bearer]) {
      for (const { key, method, path } of routes) {
        const answer = await raw(method, path, { Authorization: [bearer, second] });
        expect({ key, second, ...answer }).toEqual({ key, second, status: 400, body: invalidRequest });
      }
    }
  });

  it('refuses a bearer token together with the session cookie with 400 invalid_request on every route', async () => {
    for (const { key, method, path } of routes) {
      const answer = await raw(method, path, {
        authorization: bearer,
        cookie: 'svc_session=some.session.token',
      });
      expect({ key, ...answer }).toEqual({ key, status: 400, body: invalidRequest });
    }
  });
});
