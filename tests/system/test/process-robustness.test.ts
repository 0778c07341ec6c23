import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startProcessStack, type ProcessStack } from './support/process-stack.js';
import { probe } from './support/service-process.js';
import { waitFor } from './support/wait-for.js';

/*
 * Issue #11: a generated `POST /entitlements/can` whose `action` held non-ASCII characters ended
 * the entitlements process (its error details could not be gRPC metadata), and from then on every
 * tenant endpoint answered 503. Here the built services run as real processes.
 */

const HOSTILE_ACTIONS = [
  'BULK_ÜPLOAD',
  '日本語のアクション',
  'emoji 😀 action',
  'nul \u0000 bel \u0007 del \u007f',
  'lone \ud800 surrogate',
  'ä'.repeat(64),
];

describe('hostile input against the real processes', () => {
  let stack: ProcessStack;
  let bearer: string;
  beforeAll(async () => {
    stack = await startProcessStack('robust');
    ({ bearer } = await stack.createTenant('Robust Ltd'));
  }, 90_000);
  afterAll(async () => {
    await stack?.stop();
  }, 20_000);

  const can = (action: string) =>
    fetch(`${stack.base}/api/v1/entitlements/can`, {
      method: 'POST',
      headers: { authorization: bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ action, resourceCount: 1 }),
      signal: AbortSignal.timeout(10_000),
    });

  // The gateway's schema lists the actions, so these end there; entitlements' own refusal
  // (UNKNOWN_ACTION) is held by its gRPC tests.
  it('answers a non-ASCII action with 400 VALIDATION_FAILED, and entitlements stays the same process', async () => {
    const entitlements = stack.process('entitlements').child;
    const pid = entitlements.pid;
    for (const action of HOSTILE_ACTIONS) {
      const response = await can(action);
      const body = (await response.json()) as { success: boolean; error: { code: string } };
      expect([action, response.status, body.success, body.error.code]).toEqual([
        action,
        400,
        false,
        'VALIDATION_FAILED',
      ]);
    }
    expect(entitlements.exitCode).toBeNull();
    expect(entitlements.pid).toBe(pid);
    expect(stack.logs('entitlements')).not.toContain('FATAL');
    const allowed = await can('BULK_UPLOAD');
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toMatchObject({ success: true, data: { allowed: true } });
  });

  it('answers a long or non-ASCII client_id at the token endpoint with 400 invalid_request, never 500', async () => {
    for (const clientId of ['x'.repeat(600), 'ä'.repeat(300), 'client \u0000 😀']) {
      const response = await fetch(`${stack.base}/api/v1/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: 's',
        }),
        signal: AbortSignal.timeout(10_000),
      });
      expect([clientId.slice(0, 10), response.status, await response.json()]).toMatchObject([
        clientId.slice(0, 10),
        400,
        { error: 'invalid_request' },
      ]);
    }
  });

  it('says on the public /readyz that entitlements is down while it is dead, and nothing more', async () => {
    const entitlements = stack.process('entitlements');
    entitlements.child.kill('SIGKILL');
    await entitlements.exited();
    const body = await waitFor(
      async () => {
        const response = await fetch(`${stack.base}/readyz`, { signal: AbortSignal.timeout(5_000) });
        const text = await response.text();
        return response.status === 503 ? text : undefined;
      },
      30_000,
      200,
    );
    expect(JSON.parse(body)).toEqual({ status: 'not ready', down: ['entitlements'] });
    for (const leak of ['127.0.0.1', 'ipv4:', 'ECONNREFUSED', 'UNAVAILABLE', 'No connection', 'deadline'])
      expect(body.toLowerCase()).not.toContain(leak.toLowerCase());
    // The admin port says the same; the error with its address is in the gateway's log.
    expect(JSON.parse(await stack.text('gateway', '/readyz'))).toEqual({
      status: 'not ready',
      down: ['entitlements'],
    });
    await waitFor(async () =>
      stack.logs('gateway').includes('readiness check entitlements failing') ? true : undefined,
    );
    // The other services are untouched.
    expect(await probe(`${stack.base}/healthz`)).toBe(200);
  });
});
