import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The services of the local stack, in start order, with their health ports. */
export const STACK_SERVICES = [
  { name: 'identity', entry: 'services/identity/dist/main.js', readyUrl: 'http://127.0.0.1:8081/readyz' },
  {
    name: 'entitlements',
    entry: 'services/entitlements/dist/main.js',
    readyUrl: 'http://127.0.0.1:8083/readyz',
  },
  { name: 'adoption', entry: 'services/adoption/dist/main.js', readyUrl: 'http://127.0.0.1:8082/readyz' },
  { name: 'gateway', entry: 'services/gateway/dist/main.js', readyUrl: 'http://127.0.0.1:3000/readyz' },
] as const;

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

/** Each service's certificate from the local PKI (`tap-infra pki`, run by `npm run up`). */
function tlsEnv(service: string): Record<string, string> {
  const dir = `${REPO_ROOT}.infra/pki/${service}/`;
  return {
    GRPC_TLS_CERT_FILE: `${dir}tls.crt`,
    GRPC_TLS_KEY_FILE: `${dir}tls.key`,
    GRPC_TLS_CA_FILE: `${dir}ca.crt`,
  };
}

/**
 * Runs the four services as child processes with the current environment and each its own
 * certificate (.infra/pki/<service>), prefixing their logs,
 * until SIGINT/SIGTERM; then stops them gracefully (SIGTERM) and resolves.
 */
export async function runStack(onReady: () => Promise<void>): Promise<void> {
  const children: ChildProcess[] = STACK_SERVICES.map((service) => {
    const child = spawn(process.execPath, [service.entry], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...tlsEnv(service.name) },
    });
    const prefix = `[${service.name}] `;
    const forward = (stream: NodeJS.WritableStream) => (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line) stream.write(prefix + line + '\n');
    };
    child.stdout?.on('data', forward(process.stdout));
    child.stderr?.on('data', forward(process.stderr));
    return child;
  });
  const stop = async () => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null) return;
        child.kill('SIGTERM');
        await once(child, 'exit');
      }),
    );
  };
  // Every signal is handled, not just the first: Ctrl-C reaches the whole process group and
  // tap-infra forwards it too, so the stack gets two at once. With `once`, the second killed it
  // and left the services orphaned with their log pipes broken. Later signals join the same stop.
  let stopping: Promise<void> | undefined;
  const stopped = new Promise<void>((resolve) => {
    const onSignal = () => {
      stopping ??= stop();
      void stopping.then(resolve);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  await waitUntilReady(STACK_SERVICES.map((s) => s.readyUrl));
  await onReady();
  await stopped;
}
