import { accessSync, constants } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));

/** Where scripts/install-infra.sh puts the binaries it builds. */
export function infraBinDir(env: Readonly<Record<string, string | undefined>>): string {
  return env['TAP_INFRA_BIN'] ?? join(REPO_ROOT, '.infra', 'bin');
}

/**
 * Finds an executable in the kit's bin folder, then on PATH (and /usr/sbin, where Debian puts
 * nats-server). Throws with the install command when it is missing.
 */
export function findBinary(name: string, env: Readonly<Record<string, string | undefined>>): string {
  const dirs = [infraBinDir(env), ...(env['PATH'] ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; keep looking
    }
  }
  throw new Error(`${name} not found; run scripts/install-infra.sh (or set the matching *_URL variable)`);
}
