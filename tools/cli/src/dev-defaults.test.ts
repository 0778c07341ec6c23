import { describe, expect, it } from '@jest/globals';
import { isLoopbackGrpcTarget, isLoopbackNatsUrl, parseDevEnv, withDevDefaults } from './dev-defaults.js';

const WANTED = ['OPERATOR_TOKEN', 'NATS_URL'];
const FILE =
  '# comment\n\nOPERATOR_TOKEN=dev-token-from-file-000000000000000000\nKEY_ENCRYPTION_SECRET=k=v\n';

describe('development defaults', () => {
  it('parses KEY=value lines, skipping comments and blanks, keeping "=" inside values', () => {
    expect(parseDevEnv(FILE)).toEqual({
      OPERATOR_TOKEN: 'dev-token-from-file-000000000000000000',
      KEY_ENCRYPTION_SECRET: 'k=v',
    });
  });

  it('leaves the variables the caller does not read alone', () => {
    expect(withDevDefaults({}, FILE, WANTED).applied).toEqual(['OPERATOR_TOKEN']);
  });

  it('fills only unset variables when every target is loopback (the defaults are)', () => {
    const { env, applied } = withDevDefaults({ KEY_ENCRYPTION_SECRET: 'set-by-caller' }, FILE, WANTED);
    expect(applied).toEqual(['OPERATOR_TOKEN']);
    // Only what the caller reads: KEY_ENCRYPTION_SECRET stays the caller's.
    expect(env['OPERATOR_TOKEN']).toBe('dev-token-from-file-000000000000000000');
    expect(env['KEY_ENCRYPTION_SECRET']).toBe('set-by-caller');
  });

  it('applies nothing when any target is remote: a cluster never gets the development token', () => {
    for (const remote of [
      { IDENTITY_GRPC_ADDRESS: 'identity.internal:50051' },
      { ENTITLEMENTS_GRPC_ADDRESS: 'dns:///entitlements-grpc:50053' },
      { NATS_URL: 'nats://127.0.0.1:4222,nats://nats.internal:4222' },
    ]) {
      expect(withDevDefaults(remote, FILE, WANTED)).toEqual({ env: remote, applied: [] });
    }
  });

  it('applies nothing without the file (an image, or a copy without config/)', () => {
    expect(withDevDefaults({}, undefined, WANTED).applied).toEqual([]);
  });

  it('recognises loopback gRPC targets in every form the services accept', () => {
    for (const t of [
      '127.0.0.1:50051',
      'localhost:50051',
      'dns:///localhost:50051',
      'ipv4:127.0.0.1:1,127.0.0.2:2',
      'ipv6:[::1]:50051',
    ]) {
      expect(isLoopbackGrpcTarget(t)).toBe(true);
    }
    for (const t of [
      '10.0.0.1:50051',
      'identity-grpc:50051',
      'dns:///identity-grpc:50051',
      'ipv4:127.0.0.1:1,10.0.0.2:2',
      'unix:/tmp/s',
      '127.0.0.1.evil.example:1',
    ]) {
      expect(isLoopbackGrpcTarget(t)).toBe(false);
    }
    expect(isLoopbackNatsUrl('nats://localhost:4222')).toBe(true);
    expect(isLoopbackNatsUrl('nats://nats.internal:4222')).toBe(false);
    expect(isLoopbackNatsUrl('not a url')).toBe(false);
  });
});
