import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDevPki } from '@tap/testkit';
import { startNode, waitUntil } from '../identity/processes.mjs';

/**
 * The stack's floor for a read: what the same request costs on this machine with the gateway's
 * I/O and none of our code (bench/reads/floor-http.mjs → floor-grpc.mjs, bare Fastify and bare
 * grpc-js over mutual TLS, three Redis round trips, `answer` as the state). Beside bare Fastify it
 * says how much of a read's cost is the architecture's (a gRPC hop with TLS, Redis) and how much
 * is ours. Two processes, as the gateway and adoption are.
 * @param {{ redisUrl: string }} urls
 * @param {unknown} answer the wire message GetState answers (a real tenant's state)
 */
export async function startFloor(urls, answer) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  const pki = await ensureDevPki(join(dir, 'pki'));
  const answerFile = join(dir, 'answer.json');
  writeFileSync(answerFile, JSON.stringify(answer));
  /** @param {string} name */
  const tls = (name) => ({
    FLOOR_CERT_FILE: join(pki[name] ?? '', 'tls.crt'),
    FLOOR_KEY_FILE: join(pki[name] ?? '', 'tls.key'),
    FLOOR_CA_FILE: join(pki[name] ?? '', 'ca.crt'),
  });
  const common = { REDIS_URL: urls.redisUrl, MALLOC_ARENA_MAX: '2' };
  /** @param {ReturnType<typeof startNode>} node @param {string} name */
  const readyPort = (node, name) =>
    waitUntil(
      async () => {
        const port = /READY (\d+)/.exec(node.stdout());
        return port ? Number(port[1]) : undefined;
      },
      name,
      node.stderr,
    );
  const service = startNode('bench/reads/floor-grpc.mjs', {
    ...common,
    ...tls('adoption'),
    FLOOR_ANSWER_FILE: answerFile,
  });
  /** @type {ReturnType<typeof startNode> | undefined} */
  let http;
  const stop = async () => {
    await http?.stop();
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const grpcPort = await readyPort(service, 'floor gRPC');
    http = startNode('bench/reads/floor-http.mjs', {
      ...common,
      ...tls('gateway'),
      FLOOR_GRPC_ADDRESS: `127.0.0.1:${grpcPort}`,
    });
    return { port: await readyPort(http, 'floor HTTP'), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
