import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  superviseProcess,
  type RestartPolicy,
  type SupervisedProcess,
  type SupervisorOutput,
} from './supervisor.js';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** One service of the local stack: its built entry point, its health URL and any extra env. */
export interface StackService {
  readonly name: string;
  readonly entry: string;
  readonly readyUrl: string;
  readonly env?: Readonly<Record<string, string>>;
}

/** A service's certificate from the local PKI (`tap-infra pki .infra/pki`, run by `npm run up`). */
export function localTlsEnv(service: string): Record<string, string> {
  const dir = `${REPO_ROOT}.infra/pki/${service}/`;
  return {
    GRPC_TLS_CERT_FILE: `${dir}tls.crt`,
    GRPC_TLS_KEY_FILE: `${dir}tls.key`,
    GRPC_TLS_CA_FILE: `${dir}ca.crt`,
  };
}

/**
 * The V8 heap cap every deployment sets (deploy/k8s/base/kustomization.yaml): without it V8
 * sizes the heap, the young generation among it, from the machine's memory, so a local stack
 * would hold far more than a pod does.
 */
export const SERVICE_NODE_OPTIONS = '--max-old-space-size=320 --max-semi-space-size=16';

function serviceNodeOptions(inherited: string | undefined): string {
  return inherited ? `${inherited} ${SERVICE_NODE_OPTIONS}` : SERVICE_NODE_OPTIONS;
}

/** The services of the local stack, in start order, with their health ports and certificates. */
export const STACK_SERVICES: readonly StackService[] = [
  {
    name: 'identity',
    entry: 'services/identity/dist/main.js',
    readyUrl: 'http://127.0.0.1:8081/readyz',
    env: localTlsEnv('identity'),
  },
  {
    name: 'entitlements',
    entry: 'services/entitlements/dist/main.js',
    readyUrl: 'http://127.0.0.1:8083/readyz',
    env: localTlsEnv('entitlements'),
  },
  {
    name: 'adoption',
    entry: 'services/adoption/dist/main.js',
    readyUrl: 'http://127.0.0.1:8082/readyz',
    env: localTlsEnv('adoption'),
  },
  {
    name: 'notifications',
    entry: 'services/notifications/dist/main.js',
    readyUrl: 'http://127.0.0.1:8084/readyz',
    env: localTlsEnv('notifications'),
  },
  {
    name: 'gateway',
    entry: 'services/gateway/dist/main.js',
    readyUrl: 'http://127.0.0.1:3000/readyz',
    env: localTlsEnv('gateway'),
  },
];

const READY_TIMEOUT_MS = 120_000;

async function isReady(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1_000) })).ok;
  } catch {
    return false;
  }
}

/** Waits until every service answers ready, or throws naming those that do not. */
export async function waitUntilReady(urls: readonly string[], timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const states = await Promise.all(urls.map(isReady));
    if (states.every(Boolean)) return;
    await sleep(250);
  }
  throw new Error(`not ready within ${timeoutMs} ms: ${urls.join(', ')}`);
}

/** A running, supervised stack. */
export interface Stack {
  readonly processes: readonly SupervisedProcess[];
  /** Stops every service (SIGTERM, no restarts any more) and waits for them. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts `services` as supervised child processes with the current environment (plus each
 * service's own `env`): one that dies is restarted with backoff and a loud line (supervisor.ts).
 */
export function startStack(
  services: readonly StackService[] = STACK_SERVICES,
  options: { output?: SupervisorOutput; policy?: RestartPolicy } = {},
): Stack {
  const output = options.output ?? { out: process.stdout, err: process.stderr };
  const processes = services.map((service) =>
    superviseProcess({
      name: service.name,
      entry: service.entry,
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        NODE_OPTIONS: serviceNodeOptions(process.env['NODE_OPTIONS']),
        // As every deployment sets it (deploy/k8s/base/kustomization.yaml): fewer glibc arenas.
        MALLOC_ARENA_MAX: process.env['MALLOC_ARENA_MAX'] ?? '2',
        ...service.env,
      },
      output,
      ...(options.policy ? { policy: options.policy } : {}),
    }),
  );
  let stopping: Promise<void> | undefined;
  return {
    processes,
    stop: () => (stopping ??= Promise.all(processes.map((p) => p.stop())).then(() => undefined)),
  };
}

/**
 * Runs the services, supervised, until SIGINT/SIGTERM; then stops them gracefully
 * (SIGTERM, no restart during the stop) and resolves.
 */
export async function runStack(onReady: () => Promise<void>): Promise<void> {
  const stack = startStack();
  // Every signal is handled, not just the first: Ctrl-C reaches the whole process group and
  // tap-infra forwards it too, so the stack gets two at once. With `once`, the second killed it
  // and left the services orphaned with their log pipes broken. Later signals join the same stop.
  const stopped = new Promise<void>((resolve) => {
    const onSignal = () => void stack.stop().then(resolve);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  await waitUntilReady(STACK_SERVICES.map((s) => s.readyUrl));
  await onReady();
  await stopped;
}
