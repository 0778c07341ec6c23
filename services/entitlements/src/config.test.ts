import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@tap/config';
import { DEFAULT_APPLIED_EVENT_RETENTION_MS, DEFAULT_CLEANUP_INTERVAL_MS, loadConfig } from './config.js';

const REQUIRED = { MONGO_URL: 'mongodb://127.0.0.1:27017/', OPERATOR_TOKEN: 'o'.repeat(32) };

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

  it('takes an optional previous operator token, held to the same minimum length', () => {
    expect(loadConfig(REQUIRED).operatorTokenPrevious).toBeUndefined();
    expect(loadConfig({ ...REQUIRED, OPERATOR_TOKEN_PREVIOUS: 'p'.repeat(32) }).operatorTokenPrevious).toBe(
      'p'.repeat(32),
    );
    expect(() => loadConfig({ ...REQUIRED, OPERATOR_TOKEN_PREVIOUS: 'p'.repeat(31) })).toThrow(
      /OPERATOR_TOKEN_PREVIOUS must be at least 32 characters long/,
    );
  });
});
