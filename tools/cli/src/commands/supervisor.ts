import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** The restart backoff of `npm run up`: 0.5 s, doubling, at most 30 s; reset after a minute up. */
export interface RestartPolicy {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** A process that ran this long before it died starts the backoff over. */
  readonly healthyResetMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  healthyResetMs: 60_000,
};

/** The wait before restart number `attempt` (1 for the first restart after a healthy run). */
export function restartDelayMs(attempt: number, policy: RestartPolicy = DEFAULT_RESTART_POLICY): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));
}

/** Where a supervised process's lines and the supervisor's own go. */
export interface SupervisorOutput {
  readonly out: { write(text: string): unknown };
  readonly err: { write(text: string): unknown };
}

export interface SupervisedProcess {
  readonly name: string;
  /** The current process's pid (undefined while waiting to restart). */
  pid(): number | undefined;
  /** How many times the process was restarted. */
  restarts(): number;
  /** Stops for good: no restart from now on; SIGTERM to the process and waits for its exit. */
  stop(): Promise<void>;
}

/**
 * Runs `node <entry>` and keeps it running: when it exits on its own (a crash, the process
 * policy's exit 70, a SIGKILL) it is started again after restartDelayMs, with one loud line on
 * stderr naming the service, its exit code or signal, the restart count and the delay. A local
 * stand-in for what Kubernetes does in production (restartPolicy: Always, CrashLoopBackOff).
 * Lines of the process are prefixed with `[name] `.
 */
export function superviseProcess(options: {
  name: string;
  entry: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  output: SupervisorOutput;
  policy?: RestartPolicy;
}): SupervisedProcess {
  const policy = options.policy ?? DEFAULT_RESTART_POLICY;
  const prefix = `[${options.name}] `;
  let child: ChildProcess | undefined;
  let stopping = false;
  let restarts = 0;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;

  const forward = (stream: { write(text: string): unknown }) => {
    let rest = '';
    return (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line) stream.write(prefix + line + '\n');
    };
  };

  const start = (): void => {
    timer = undefined;
    const startedAt = Date.now();
    const current = spawn(process.execPath, [options.entry], {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env,
      // A process group of its own: Ctrl-C reaches the stack only, which stops every service
      // itself (SIGTERM, restarts off first), so no service exits on the signal before the
      // supervisor knows that a stop is under way and restarts it.
      detached: true,
    });
    child = current;
    current.stdout?.on('data', forward(options.output.out));
    current.stderr?.on('data', forward(options.output.err));
    current.on('error', (error) =>
      options.output.err.write(`[stack] ${options.name} could not be started: ${error.message}\n`),
    );
    current.once('exit', (code, signal) => {
      if (child === current) child = undefined;
      if (stopping) return;
      attempt = Date.now() - startedAt >= policy.healthyResetMs ? 1 : attempt + 1;
      restarts += 1;
      const delay = restartDelayMs(attempt, policy);
      const how = signal ? `signal ${signal}` : `exit code ${String(code)}`;
      options.output.err.write(
        `[stack] !!! ${options.name} DIED (${how}); restart #${restarts} in ${delay / 1_000} s !!!\n`,
      );
      timer = setTimeout(start, delay);
    });
  };
  start();

  return {
    name: options.name,
    pid: () => child?.pid,
    restarts: () => restarts,
    async stop() {
      stopping = true;
      clearTimeout(timer);
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = once(running, 'exit');
      running.kill('SIGTERM');
      await exited;
    },
  };
}
