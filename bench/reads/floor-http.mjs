// The HTTP half of the stack's floor (bench/reads/floor.mjs): a bare Fastify route doing the I/O
// every gateway read does, and nothing else: a Redis round trip for the revocation list, one for
// the rate-limit script, one grpc-js unary call over mutual TLS, the answer written as JSON.
import { readFileSync } from 'node:fs';
import process from 'node:process';
import * as grpc from '@grpc/grpc-js';
import { contracts } from '@tap/contracts';
import Fastify from 'fastify';
import { Redis } from 'ioredis';

const env = (/** @type {string} */ name) => process.env[name] ?? '';
const redis = new Redis(env('REDIS_URL'), { enableAutoPipelining: true });
const LIMIT = "local n = redis.call('INCR', KEYS[1]); redis.call('PEXPIRE', KEYS[1], 60000); return n";
const limitSha = /** @type {string} */ (await redis.script('LOAD', LIMIT));
const Adoption = contracts().adoption.AdoptionService;
const adoption = new Adoption(
  env('FLOOR_GRPC_ADDRESS'),
  grpc.credentials.createSsl(
    readFileSync(env('FLOOR_CA_FILE')),
    readFileSync(env('FLOOR_KEY_FILE')),
    readFileSync(env('FLOOR_CERT_FILE')),
    // The chain is verified; the name check is the real clients' own (grpc-kit) and not I/O.
    { checkServerIdentity: () => undefined },
  ),
  { 'grpc.ssl_target_name_override': 'adoption' },
);

const app = Fastify();
app.get('/state', async (request, reply) => {
  const authorization = request.headers.authorization ?? '';
  const key = authorization.slice(-24);
  if ((await redis.exists(`floor:revoked:${key}`)) > 0) return reply.code(401).send();
  await redis.evalsha(limitSha, 1, `floor:limit:${key}`);
  const metadata = new grpc.Metadata();
  metadata.set('authorization', authorization);
  const state = await new Promise((resolve, reject) =>
    adoption.GetState({}, metadata, { deadline: Date.now() + 2_000 }, (error, answer) =>
      error ? reject(error) : resolve(answer),
    ),
  );
  return reply.type('application/json').send(JSON.stringify({ success: true, data: state }));
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
console.log(`READY ${typeof address === 'object' && address ? address.port : 0}`);
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => redis.quit())
      .finally(() => process.exit(0)),
);
