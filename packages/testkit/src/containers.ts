import { existsSync } from 'node:fs';
import type { InfraKind, StartedServer } from './infrastructure.js';

type Env = Readonly<Record<string, string | undefined>>;

const IMAGES: Readonly<Record<InfraKind, { image: string; port: number; command?: string[] }>> = {
  mongo: { image: 'mongo:7.0', port: 27017 },
  nats: { image: 'nats:2.10', port: 4222, command: ['-js'] },
  redis: { image: 'redis:7.2', port: 6379 },
};

/** A cheap first look for a Docker engine, before loading testcontainers at all. */
export function dockerMayBePresent(env: Env): boolean {
  return Boolean(env['DOCKER_HOST']) || existsSync('/var/run/docker.sock');
}

/** True when testcontainers can reach a container runtime. */
export async function dockerAnswers(env: Env): Promise<boolean> {
  if (!dockerMayBePresent(env)) return false;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

/** Starts one server of `kind` in a container and returns its mapped URL. */
export async function startContainer(kind: InfraKind): Promise<StartedServer> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const spec = IMAGES[kind];
  let container = new GenericContainer(spec.image)
    .withExposedPorts(spec.port)
    .withWaitStrategy(Wait.forListeningPorts());
  if (spec.command) container = container.withCommand(spec.command);
  const started = await container.start();
  const host = started.getHost();
  const port = started.getMappedPort(spec.port);
  const scheme = kind === 'mongo' ? 'mongodb' : kind;
  return {
    url: `${scheme}://${host}:${port}${kind === 'mongo' ? '/' : ''}`,
    async stop() {
      await started.stop();
    },
  };
}
