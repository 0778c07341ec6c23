import { describe, expect, it } from '@jest/globals';
import { ConfigError, parseEnv } from './parse-env.js';
import {
  DOMAIN_STREAM_ENV,
  domainStreamFromEnv,
  serviceEnv,
  serviceFromEnv,
  TELEMETRY_ENV,
  telemetryFromEnv,
} from './service-env.js';

const specs = {
  ...serviceEnv('SHOP', { grpcPort: 50060, httpPort: 8090, database: 'shop' }),
  ...DOMAIN_STREAM_ENV,
  ...TELEMETRY_ENV,
};
const mongo = { MONGO_URL: 'mongodb://127.0.0.1:27017' };

describe('serviceEnv, DOMAIN_STREAM_ENV and TELEMETRY_ENV', () => {
  it('give a service its defaults under variables named after it', () => {
    const e = parseEnv(mongo, specs);
    expect(serviceFromEnv('SHOP', e)).toEqual({
      host: '127.0.0.1',
      grpcPort: 50060,
      httpPort: 8090,
      mongo: { url: 'mongodb://127.0.0.1:27017', database: 'shop' },
    });
    expect(domainStreamFromEnv(e)).toEqual({ streamName: 'DOMAIN_EVENTS', subjectPrefix: 'domain' });
    expect(telemetryFromEnv(e)).toEqual({ otlpTracesUrl: undefined, logLevel: 'info' });
  });

  it('read the service’s own variables', () => {
    const env = { ...mongo, SHOP_GRPC_PORT: '0', SHOP_HTTP_PORT: '9000', SHOP_MONGO_DB: 'shop_blue' };
    expect(serviceFromEnv('SHOP', parseEnv(env, specs))).toMatchObject({
      grpcPort: 0,
      httpPort: 9000,
      mongo: { database: 'shop_blue' },
    });
  });

  it('list every bad variable at once, MONGO_URL among them when it is missing', () => {
    const env = { SHOP_GRPC_PORT: 'x', LOG_LEVEL: 'loud' };
    try {
      parseEnv(env, specs);
      throw new Error('parseEnv accepted a bad environment');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const variables = (error as ConfigError).issues.map((issue) => issue.variable).sort();
      expect(variables).toEqual(['LOG_LEVEL', 'MONGO_URL', 'SHOP_GRPC_PORT']);
    }
  });
});
