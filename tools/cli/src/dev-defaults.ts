import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The checked-in development defaults, shared with scripts/dev-env.sh (one source). */
export const DEV_DEFAULTS_FILE = fileURLToPath(new URL('../../../config/dev.env', import.meta.url));

type Env = Readonly<Record<string, string | undefined>>;

/** `KEY=value` lines; blank lines and `#` comments skipped. No quotes, no expansion. */
export function parseDevEnv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    values[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return values;
}

function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** A gRPC target (`host:port`, `dns:///host:port`, `ipv4:a:p,b:p`, `ipv6:[::1]:p`) only on loopback. */
export function isLoopbackGrpcTarget(target: string): boolean {
  const rest = target.replace(/^dns:(\/\/[^/]*\/)?\/?/, '').replace(/^ipv[46]:/, '');
  const hosts = rest.split(',').map((entry) => {
    const bracketed = /^\[([^\]]+)\](:\d+)?$/.exec(entry);
    if (bracketed) return bracketed[1] ?? '';
    return entry.replace(/:\d+$/, '');
  });
  return hosts.length > 0 && hosts.every(isLoopbackHost);
}

/** A NATS server list (comma-separated URLs) only on loopback; anything unparsable is not. */
export function isLoopbackNatsUrl(urls: string): boolean {
  return urls.split(',').every((url) => {
    try {
      return isLoopbackHost(new URL(url.trim()).hostname);
    } catch {
      return false;
    }
  });
}

/** Whether every address the CLI would call is on this machine (defaults included). */
export function targetsLoopback(env: Env): boolean {
  return (
    isLoopbackGrpcTarget(env['IDENTITY_GRPC_ADDRESS'] ?? '127.0.0.1:50051') &&
    isLoopbackGrpcTarget(env['ENTITLEMENTS_GRPC_ADDRESS'] ?? '127.0.0.1:50053') &&
    isLoopbackNatsUrl(env['NATS_URL'] ?? 'nats://127.0.0.1:4222')
  );
}

export interface DevDefaults {
  /** The environment to read configuration from: `env` with the missing defaults filled in. */
  readonly env: Env;
  /** The variables taken from the file (empty when none was needed or allowed). */
  readonly applied: readonly string[];
}

/**
 * Fills the `wanted` variables (those the CLI reads) that `env` leaves unset from the
 * development defaults (the file also holds the services' own, such as KEY_ENCRYPTION_SECRET),
 * only when every target is
 * loopback: a CLI pointed at a real cluster keeps failing with "OPERATOR_TOKEN is required"
 * instead of sending a development token to it. Set variables always win.
 *
 * The operator certificate needs nothing here: cli-config.ts defaults GRPC_TLS_* to
 * .infra/pki/operator, which only a machine that ran `npm run up` has.
 */
export function withDevDefaults(
  env: Env,
  fileText: string | undefined,
  wanted: readonly string[],
): DevDefaults {
  if (fileText === undefined || !targetsLoopback(env)) return { env, applied: [] };
  const defaults = parseDevEnv(fileText);
  const applied = wanted.filter(
    (key) => defaults[key] !== undefined && (env[key] === undefined || env[key] === ''),
  );
  if (applied.length === 0) return { env, applied };
  const filled: Record<string, string | undefined> = { ...env };
  for (const key of applied) filled[key] = defaults[key];
  return { env: filled, applied };
}

/** Reads DEV_DEFAULTS_FILE when it exists (a checkout; never an image) and applies it. */
export function loadDevDefaults(env: Env, wanted: readonly string[], file = DEV_DEFAULTS_FILE): DevDefaults {
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = undefined;
  }
  return withDevDefaults(env, text, wanted);
}
