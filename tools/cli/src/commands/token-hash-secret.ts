import { parseEnv, secret } from '@tap/config';
import { deriveTokenHashSecret } from '@tap/tokens';

/**
 * The TOKEN_HASH_SECRET identity derives from KEY_ENCRYPTION_SECRET when none is configured:
 * the value to pin before rotating KEY_ENCRYPTION_SECRET (docs/operations.md). The secret comes
 * from the environment, never from the command line, which shell history and `ps` would keep.
 */
export function derivedTokenHashSecret(env: Readonly<Record<string, string | undefined>>): string {
  const e = parseEnv(env, { KEY_ENCRYPTION_SECRET: secret(32)() });
  return deriveTokenHashSecret(e.KEY_ENCRYPTION_SECRET);
}
