import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@tap/config';
import { REQUIRED_SERVICE_ENV as REQUIRED } from '@tap/service-testkit';
import {
  DEFAULT_HOUSEKEEPING_INTERVAL_MS,
  DEFAULT_OUTBOX_GRACE_MS,
  DEFAULT_OUTBOX_INTERVAL_MS,
  loadConfig,
} from './config.js';

describe('loadConfig', () => {
  it('takes the outbox relay schedule from the environment, with defaults', () => {
    expect(loadConfig(REQUIRED).outbox).toEqual({
      intervalMs: DEFAULT_OUTBOX_INTERVAL_MS,
      graceMs: DEFAULT_OUTBOX_GRACE_MS,
    });
    expect(
      loadConfig({ ...REQUIRED, ADOPTION_OUTBOX_INTERVAL_MS: '2000', ADOPTION_OUTBOX_GRACE_MS: '5000' })
        .outbox,
    ).toEqual({ intervalMs: 2_000, graceMs: 5_000 });
  });

  it('takes the housekeeping interval from the environment, hourly by default', () => {
    expect(loadConfig(REQUIRED).housekeeping).toEqual({ intervalMs: DEFAULT_HOUSEKEEPING_INTERVAL_MS });
    expect(loadConfig({ ...REQUIRED, ADOPTION_HOUSEKEEPING_INTERVAL_MS: '600000' }).housekeeping).toEqual({
      intervalMs: 600_000,
    });
  });

  it('refuses a grace period the stream would no longer deduplicate a republish in', () => {
    let error: unknown;
    try {
      loadConfig({ ...REQUIRED, EVENTS_DUPLICATE_WINDOW_MS: '30000' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map((i) => i.variable)).toEqual(['ADOPTION_OUTBOX_GRACE_MS']);
  });
});
