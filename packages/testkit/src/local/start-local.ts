import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { InfraKind, StartedServer } from '../infrastructure.js';
import { STANDARD_PORTS } from '../infrastructure.js';
import { findBinary } from './binaries.js';
import { freeLoopbackPort } from './free-port.js';
import { spawnServer, type ServerSpec } from './spawn-server.js';

type Env = Readonly<Record<string, string | undefined>>;

const ATTEMPTS = 3;

/** Starts one local server of `kind` on loopback, retrying on a port race. */
export async function startLocal(
  kind: InfraKind,
  options: { ports: 'free' | 'standard' | number; dataDir: string; env: Env },
): Promise<StartedServer> {
  let lastError: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const port =
      typeof options.ports === 'number'
        ? options.ports
        : options.ports === 'standard'
          ? STANDARD_PORTS[kind]
          : await freeLoopbackPort();
    const dir = join(options.dataDir, kind);
    mkdirSync(dir, { recursive: true });
    try {
      return await spawnServer(specFor(kind, port, dir, options.env));
    } catch (error) {
      lastError = error;
      if (options.ports !== 'free') break;
    }
  }
  throw lastError;
}

function specFor(kind: InfraKind, port: number, dir: string, env: Env): ServerSpec {
  switch (kind) {
    case 'redis':
      return {
        name: 'redis-server',
        binary: findBinary('redis-server', env),
        args: [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--dir',
          dir,
        ],
        port,
        url: `redis://127.0.0.1:${port}`,
      };
    case 'nats':
      return {
        name: 'nats-server',
        binary: findBinary('nats-server', env),
        args: ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir],
        port,
        url: `nats://127.0.0.1:${port}`,
      };
    case 'mongo':
      return {
        name: 'ferretdb',
        binary: findBinary('ferretdb', env),
        args: [
          '--handler=sqlite',
          // WAL with synchronous=NORMAL: a commit is not fsynced on its own (FerretDB's default,
          // FULL, syncs every update), which about halves an update by _id. A crash of FerretDB
          // loses nothing; a power loss may lose the last commits, never corrupt the file: right
          // for tests and the local stack.
          `--sqlite-url=file:${dir}/?_pragma=synchronous(normal)`,
          `--state-dir=${dir}`,
          `--listen-addr=127.0.0.1:${port}`,
          '--telemetry=disable',
          '--debug-addr=-',
          '--log-level=warn',
        ],
        port,
        url: `mongodb://127.0.0.1:${port}/`,
      };
  }
}
