import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dockerAnswers, startContainer } from './containers.js';
import type {
  InfraKind,
  InfraSource,
  Infrastructure,
  StartOptions,
  StartedServer,
} from './infrastructure.js';
import { ENV_URL_NAMES } from './infrastructure.js';
import { startLocal } from './local/start-local.js';

const KINDS: readonly InfraKind[] = ['mongo', 'nats', 'redis'];

/**
 * Gives a test run (or the local stack) NATS with JetStream, Redis and a MongoDB-wire database.
 * Each comes from its `*_URL` variable when set, else from a container when a Docker engine
 * answers, else from a local binary started on loopback (see scripts/install-infra.sh).
 */
export async function startInfrastructure(options: StartOptions = {}): Promise<Infrastructure> {
  const env = options.env ?? process.env;
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tap-infra-'));
  const needed = KINDS.filter((kind) => !env[ENV_URL_NAMES[kind]]);
  const useContainers = needed.length > 0 && (await dockerAnswers(env));
  const started: StartedServer[] = [];
  const urls = {} as Record<InfraKind, string>;
  const sources = {} as Record<InfraKind, InfraSource>;

  const stop = async (): Promise<void> => {
    await Promise.allSettled(started.map((server) => server.stop()));
    if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    for (const kind of KINDS) {
      const fromEnv = env[ENV_URL_NAMES[kind]];
      if (fromEnv) {
        urls[kind] = fromEnv;
        sources[kind] = 'env';
        continue;
      }
      const server = useContainers
        ? await startContainer(kind)
        : await startLocal(kind, { ports: options.ports ?? 'free', dataDir, env });
      started.push(server);
      urls[kind] = server.url;
      sources[kind] = useContainers ? 'containers' : 'local';
    }
  } catch (error) {
    await stop();
    throw error;
  }

  return { mongoUrl: urls.mongo, natsUrl: urls.nats, redisUrl: urls.redis, sources, stop };
}
