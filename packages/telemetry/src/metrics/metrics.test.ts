import { describe, expect, it } from '@jest/globals';
import {
  countAnswerCacheLookup,
  countLimiterDecisions,
  initMetrics,
  instrumentRedis,
  metricsRoute,
  observeHttpRequest,
  readSample,
  rpcMetricsObserver,
  watchConsumer,
} from '../index.js';

const stats = { delivered: 3, applied: 2, invalid: 0, failed: 1, redelivered: 1, deadLettered: 0 };

describe('metrics', () => {
  it('exposes the named series with the service label and the default process metrics', async () => {
    initMetrics('unit');
    observeHttpRequest('/api/v1/tenant', 'GET', 204, 0.01);
    rpcMetricsObserver.serverCall('IdentityService/GetTenant', 14, 0.002);
    rpcMetricsObserver.clientCall('IdentityService/GetTenant', 0, 0.003);
    watchConsumer('unit-consumer', { stats: () => stats, pending: async () => 7 });
    const limiter = countLimiterDecisions({
      consume: async () => ({ allowed: false, policy: 'login-per-ip', source: 'redis' as const }),
      peek: async () => ({ allowed: true, policy: 'p', source: 'redis' as const }),
    });
    await limiter.consume();
    await limiter.peek();
    countAnswerCacheLookup('/api/v1/tenant/adoption/state', 'miss');
    countAnswerCacheLookup('/api/v1/tenant/adoption/state', 'hit');
    countAnswerCacheLookup('/api/v1/tenant/adoption/state', 'hit');
    const answer = await metricsRoute()('/metrics');
    expect(await metricsRoute()('/other')).toBeUndefined();
    const body = answer?.body ?? '';
    expect(answer?.contentType).toContain('text/plain');
    expect(
      readSample(body, 'http_server_requests_total', {
        route: '/api/v1/tenant',
        status_class: '2xx',
        service: 'unit',
      }),
    ).toBe(1);
    expect(
      readSample(body, 'rpc_server_calls_total', {
        method: 'IdentityService/GetTenant',
        code: 'UNAVAILABLE',
      }),
    ).toBe(1);
    expect(
      readSample(body, 'rpc_client_duration_seconds_count', {
        method: 'IdentityService/GetTenant',
        code: 'OK',
      }),
    ).toBe(1);
    expect(
      readSample(body, 'ratelimit_decisions_total', { policy: 'login-per-ip', outcome: 'refused' }),
    ).toBe(1);
    expect(readSample(body, 'ratelimit_decisions_total', { policy: 'p' })).toBe(0);
    const lookups = (outcome: string) =>
      readSample(body, 'gateway_answer_cache_lookups_total', {
        route: '/api/v1/tenant/adoption/state',
        outcome,
      });
    expect([lookups('hit'), lookups('miss')]).toEqual([2, 1]);
    expect(readSample(body, 'events_consumer_applied_total', { consumer: 'unit-consumer' })).toBe(2);
    expect(readSample(body, 'events_consumer_pending', { consumer: 'unit-consumer' })).toBe(7);
    expect(body).toContain('process_resident_memory_bytes');
  });

  it('times the commands a Redis client sends, replies and errors alike', async () => {
    const client = {
      sendCommand(command: { name: string; promise: Promise<unknown> }) {
        return command;
      },
    };
    instrumentRedis(client);
    instrumentRedis(client);
    client.sendCommand({ name: 'EXISTS', promise: Promise.resolve(1) });
    client.sendCommand({ name: 'EVALSHA', promise: Promise.reject(new Error('down')) });
    await new Promise((resolve) => setImmediate(resolve));
    const body = (await metricsRoute()('/metrics'))?.body ?? '';
    expect(
      readSample(body, 'db_client_operation_duration_seconds_count', {
        system: 'redis',
        operation: 'exists',
        outcome: 'ok',
      }),
    ).toBe(1);
    expect(
      readSample(body, 'db_client_operation_duration_seconds_count', {
        system: 'redis',
        operation: 'evalsha',
        outcome: 'error',
      }),
    ).toBe(1);
  });
});
