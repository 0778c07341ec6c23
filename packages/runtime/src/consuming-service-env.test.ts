import { describe, expect, it } from '@jest/globals';
import { ConfigError, parseEnv } from '@tap/config';
import { consumingServiceEnv, consumingServiceFromEnv } from './consuming-service-env.js';

const specs = consumingServiceEnv({ prefix: 'SHOP', name: 'shop', grpcPort: 50060, httpPort: 8090 });
const REQUIRED = {
  MONGO_URL: 'mongodb://127.0.0.1:27017/',
  GRPC_TLS_CERT_FILE: '/tls/tls.crt',
  GRPC_TLS_KEY_FILE: '/tls/tls.key',
  GRPC_TLS_CA_FILE: '/tls/ca.crt',
};

describe('consumingServiceEnv', () => {
  it('gives a consuming service what runConsumingService reads, its defaults named after it', () => {
    const config = consumingServiceFromEnv('SHOP', parseEnv(REQUIRED, specs));
    expect(config).toMatchObject({
      host: '127.0.0.1',
      grpcPort: 50060,
      httpPort: 8090,
      mongo: { url: REQUIRED.MONGO_URL, database: 'shop' },
      nats: { url: 'nats://127.0.0.1:4222' },
      events: { streamName: 'EVENTS', subjectPrefix: 'events', consumerName: 'shop' },
      domain: { streamName: 'DOMAIN_EVENTS', subjectPrefix: 'domain' },
      identityAddress: '127.0.0.1:50051',
      grpcTls: { certFile: '/tls/tls.crt', keyFile: '/tls/tls.key', caFile: '/tls/ca.crt' },
      otlpTracesUrl: undefined,
      logLevel: 'info',
    });
  });

  it('reads the service’s own consumer and database variables', () => {
    const env = { ...REQUIRED, SHOP_CONSUMER: 'shop_blue', SHOP_MONGO_DB: 'shop_blue' };
    const config = consumingServiceFromEnv('SHOP', parseEnv(env, specs));
    expect([config.events.consumerName, config.mongo.database]).toEqual(['shop_blue', 'shop_blue']);
  });

  it('lists every missing required variable at once', () => {
    expect(() => parseEnv({}, specs)).toThrow(ConfigError);
    expect(() => parseEnv({}, specs)).toThrow(/MONGO_URL.*GRPC_TLS_CERT_FILE|GRPC_TLS_CERT_FILE.*MONGO_URL/);
  });
});
