import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@tap/config';
import { REQUIRED_SERVICE_ENV as REQUIRED } from '@tap/service-testkit';
import { DEFAULT_APPLIED_EVENT_RETENTION_MS, DEFAULT_CLEANUP_INTERVAL_MS, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('takes the event stream, consumer and clean-up settings from the environment, with defaults', () => {
    const config = loadConfig(REQUIRED);
    expect(config.events).toEqual({
      streamName: 'EVENTS',
      subjectPrefix: 'events',
      consumerName: 'entitlements',
      duplicateWindowMs: 120_000,
    });
    expect(config.cleanup).toEqual({
      intervalMs: DEFAULT_CLEANUP_INTERVAL_MS,
      appliedEventRetentionMs: DEFAULT_APPLIED_EVENT_RETENTION_MS,
    });
    const custom = loadConfig({
      ...REQUIRED,
      EVENTS_STREAM: 'S1',
      EVENTS_SUBJECT_PREFIX: 'ev',
      ENTITLEMENTS_CONSUMER: 'ent-2',
      ENTITLEMENTS_CLEANUP_INTERVAL_MS: '5000',
    });
    expect(custom.events).toMatchObject({ streamName: 'S1', subjectPrefix: 'ev', consumerName: 'ent-2' });
    expect(custom.cleanup.intervalMs).toBe(5_000);
  });

  it('lists every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({
        ...REQUIRED,
        ENTITLEMENTS_CONSUMER: 'no spaces',
        ENTITLEMENTS_CLEANUP_INTERVAL_MS: '-1',
        NATS_URL: 'http://x',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ['ENTITLEMENTS_CONSUMER', 'ENTITLEMENTS_CLEANUP_INTERVAL_MS', 'NATS_URL'])
      expect(message).toContain(name);
  });

  it('takes no operator credential: the operator is recognised by its certificate (RPC allowlist)', () => {
    expect(Object.keys(loadConfig(REQUIRED))).not.toContain('operatorToken');
    expect(() => loadConfig({ MONGO_URL: 'mongodb://127.0.0.1:27017/' })).toThrow(/GRPC_TLS_CERT_FILE/);
  });
});
