import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { readSample } from '@tap/telemetry';
import { startProcessStack, type ProcessStack } from './support/process-stack.js';
import { waitFor } from './support/wait-for.js';

const EVENTS = 3;

describe('GET /metrics on every service', () => {
  let stack: ProcessStack;
  beforeAll(async () => {
    stack = await startProcessStack('metrics');
  }, 90_000);
  afterAll(async () => {
    await stack?.stop();
  }, 20_000);

  it('exposes the named series with the traffic that happened', async () => {
    const { tenantId, bearer } = await stack.createTenant('Metered Ltd');
    const get = (path: string) =>
      fetch(`${stack.base}${path}`, {
        headers: { authorization: bearer },
        signal: AbortSignal.timeout(5_000),
      });
    expect((await get('/api/v1/tenant')).status).toBe(200);
    expect((await get('/api/v1/tenant/adoption/state')).status).toBe(200);
    expect((await get('/api/v1/entitlements/usage')).status).toBe(200);
    expect((await get('/api/v1/no-such-route')).status).toBe(404);
    // One auth-endpoint limiter decision (the login limit counts attempts, good or bad).
    const login = await fetch(`${stack.base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' }),
      signal: AbortSignal.timeout(5_000),
    });
    expect(login.status).toBeLessThan(500);
    for (let i = 0; i < EVENTS; i += 1) {
      await stack.publish({
        id: randomUUID(),
        type: 'product.created',
        tenantId,
        occurredAt: new Date().toISOString(),
        subject: { productId: randomUUID() },
        data: {},
      });
    }

    const gateway = await stack.text('gateway', '/metrics');
    expect(
      readSample(gateway, 'http_server_requests_total', {
        route: '/api/v1/tenant',
        method: 'GET',
        status_class: '2xx',
        service: 'gateway',
      }),
    ).toBe(1);
    expect(
      readSample(gateway, 'http_server_request_duration_seconds_count', {
        route: '/api/v1/entitlements/usage',
        status_class: '2xx',
      }),
    ).toBe(1);
    expect(
      readSample(gateway, 'http_server_requests_total', { route: 'unmatched', status_class: '4xx' }),
    ).toBe(1);
    // Route patterns only: the raw URL of an unknown route never becomes a label.
    expect(gateway).not.toContain('no-such-route');
    expect(
      readSample(gateway, 'rpc_client_calls_total', { method: 'IdentityService/GetTenant', code: 'OK' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      readSample(gateway, 'rpc_client_duration_seconds_count', { method: 'EntitlementsService/GetUsage' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      readSample(gateway, 'ratelimit_decisions_total', { policy: 'login-per-ip', outcome: 'allowed' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      readSample(gateway, 'db_client_operation_duration_seconds_count', { system: 'redis' }),
    ).toBeGreaterThan(0);
    expect(readSample(gateway, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(readSample(gateway, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0);

    // Not on the Internet-facing API port: only on the gateway's admin port (read above).
    const onApiPort = await fetch(`${stack.base}/metrics`, { signal: AbortSignal.timeout(5_000) });
    expect(onApiPort.status).toBe(404);
    await onApiPort.arrayBuffer();

    const identity = await stack.text('identity', '/metrics');
    expect(
      readSample(identity, 'rpc_server_calls_total', {
        method: 'IdentityService/GetTenant',
        code: 'OK',
        service: 'identity',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      readSample(identity, 'rpc_server_calls_total', { method: 'IdentityService/CreateTenant', code: 'OK' }),
    ).toBe(1);
    expect(
      readSample(identity, 'db_client_operation_duration_seconds_count', {
        system: 'mongodb',
        operation: 'insert',
      }),
    ).toBeGreaterThan(0);

    for (const name of ['adoption', 'entitlements'] as const) {
      const text = await waitFor(
        async () => {
          const body = await stack.text(name, '/metrics');
          return readSample(body, 'events_consumer_applied_total', { service: name }) >= EVENTS
            ? body
            : undefined;
        },
        15_000,
        100,
      );
      expect(readSample(text, 'events_consumer_delivered_total')).toBeGreaterThanOrEqual(EVENTS);
      expect(readSample(text, 'events_consumer_failed_total')).toBe(0);
      expect(readSample(text, 'events_consumer_invalid_total')).toBe(0);
      expect(text).toContain('events_consumer_redeliveries_total{');
      expect(text).toMatch(/\nevents_consumer_pending\{[^}]*consumer="[^"]+"[^}]*\} \d+/);
      expect(
        readSample(text, 'db_client_operation_duration_seconds_count', { system: 'mongodb' }),
      ).toBeGreaterThan(0);
    }
    const adoption = await stack.text('adoption', '/metrics');
    expect(
      readSample(adoption, 'rpc_server_calls_total', { method: 'AdoptionService/GetState', code: 'OK' }),
    ).toBe(1);
    const entitlements = await stack.text('entitlements', '/metrics');
    expect(
      readSample(entitlements, 'rpc_server_duration_seconds_count', {
        method: 'EntitlementsService/GetUsage',
        code: 'OK',
      }),
    ).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
