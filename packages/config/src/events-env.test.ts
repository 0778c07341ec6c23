import { describe, expect, it } from '@jest/globals';
import { eventsConfig, eventsEnv } from './events-env.js';
import { ConfigError, parseEnv } from './parse-env.js';

import { identifier } from './validators.js';

const specs = { ...eventsEnv(), SHOP_CONSUMER: identifier({ default: 'shop' }) };
const configOf = (env: Record<string, string>) => {
  const e = parseEnv(env, specs);
  return eventsConfig(e, e.SHOP_CONSUMER);
};

describe('eventsEnv and eventsConfig', () => {
  it('gives every consuming service the same defaults and its own consumer name', () => {
    expect(configOf({})).toEqual({
      streamName: 'EVENTS',
      subjectPrefix: 'events',
      consumerName: 'shop',
      duplicateWindowMs: 120_000,
    });
  });

  it('reads the variables, the service’s consumer variable among them', () => {
    const env = {
      EVENTS_STREAM: 'ORDERS',
      EVENTS_SUBJECT_PREFIX: 'orders',
      SHOP_CONSUMER: 'shop_blue',
      EVENTS_DUPLICATE_WINDOW_MS: '30000',
    };
    expect(configOf(env)).toMatchObject({
      streamName: 'ORDERS',
      consumerName: 'shop_blue',
      duplicateWindowMs: 30_000,
    });
  });

  it('refuses a bad value naming the variable, like every other one', () => {
    expect(() => parseEnv({ EVENTS_STREAM: 'not an identifier!' }, specs)).toThrow(ConfigError);
    expect(() => parseEnv({ EVENTS_STREAM: 'not an identifier!' }, specs)).toThrow(/EVENTS_STREAM/);
  });
});
