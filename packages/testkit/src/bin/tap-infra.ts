#!/usr/bin/env node
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { startInfrastructure } from '../start-infrastructure.js';

const USAGE = 'usage: tap-infra run [--standard-ports] [--data-dir DIR] -- <command> [args...]';

/**
 * Runs a command with MONGO_URL, NATS_URL and REDIS_URL pointing at infrastructure started for
 * it (or taken from the environment), and stops that infrastructure when the command ends.
 */
async function main(argv: string[]): Promise<number> {
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const command = split === -1 ? [] : argv.slice(split + 1);
  const { positionals, values } = parseArgs({
    args: own,
    allowPositionals: true,
    options: { 'standard-ports': { type: 'boolean' }, 'data-dir': { type: 'string' } },
  });
  if (positionals[0] !== 'run' || command.length === 0) {
    console.error(USAGE);
    return 2;
  }
  const infra = await startInfrastructure({
    ports: values['standard-ports'] ? 'standard' : 'free',
    ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
  });
  console.error(`[tap-infra] mongo ${infra.mongoUrl} (${infra.sources.mongo}), nats ${infra.natsUrl} (${infra.sources.nats}), redis ${infra.redisUrl} (${infra.sources.redis})`);
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, {
    stdio: 'inherit',
    env: { ...process.env, MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, REDIS_URL: infra.redisUrl },
  });
  const forward = (signal: NodeJS.Signals): void => {
    child.kill(signal);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const code = await new Promise<number>((resolve) => {
    child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 + 15 : 1)));
  });
  await infra.stop();
  return code;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[tap-infra] ${(error as Error).message}`);
    process.exit(1);
  },
);
