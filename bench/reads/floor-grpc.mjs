// The service half of the stack's floor (bench/reads/floor.mjs): adoption's GetState over mutual
// TLS as bare grpc-js serves it, with the one Redis round trip a service makes per call (its
// revocation check) and a fixed answer, so that nothing of ours is measured.
import { readFileSync } from 'node:fs';
import process from 'node:process';
import * as grpc from '@grpc/grpc-js';
import { contracts } from '@tap/contracts';
import { Redis } from 'ioredis';

const env = (/** @type {string} */ name) => process.env[name] ?? '';
const answer = JSON.parse(readFileSync(env('FLOOR_ANSWER_FILE'), 'utf8'));
const redis = new Redis(env('REDIS_URL'), { enableAutoPipelining: true });
const server = new grpc.Server();
server.addService(contracts().adoption.AdoptionService.service, {
  GetState: (
    /** @type {grpc.ServerUnaryCall<unknown, unknown>} */ call,
    /** @type {grpc.sendUnaryData<unknown>} */ callback,
  ) => {
    const authorization = String(call.metadata.get('authorization')[0] ?? '');
    redis.exists(`floor:revoked:${authorization.slice(-24)}`).then(
      () => callback(null, answer),
      (error) => callback(error),
    );
  },
});
const credentials = grpc.ServerCredentials.createSsl(
  readFileSync(env('FLOOR_CA_FILE')),
  [{ cert_chain: readFileSync(env('FLOOR_CERT_FILE')), private_key: readFileSync(env('FLOOR_KEY_FILE')) }],
  true,
);
server.bindAsync('127.0.0.1:0', credentials, (error, port) => {
  if (error) throw error;
  console.log(`READY ${port}`);
});
process.on('SIGTERM', () => server.tryShutdown(() => void redis.quit().finally(() => process.exit(0))));
