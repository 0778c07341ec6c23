import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';
import { deriveTokenHashSecret } from '@tap/tokens';

const CLI = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const run = promisify(execFile);

/** Runs the built CLI with only `env` (and PATH); resolves with its exit code and output. */
async function tap(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('tap token-hash-secret', () => {
  it('prints the TOKEN_HASH_SECRET identity derives from KEY_ENCRYPTION_SECRET, without needing OPERATOR_TOKEN', async () => {
    const secret = 'k'.repeat(40);
    const printed = await tap({ KEY_ENCRYPTION_SECRET: secret }, 'token-hash-secret');
    expect(printed).toEqual({ code: 0, stdout: `${deriveTokenHashSecret(secret)}\n`, stderr: '' });
    // The value identity has always derived for this secret (packages/tokens pins it too).
    expect(printed.stdout.trim()).toBe('5GgkRu_4v5ey9dN7cHXGaajIjOqYwogVFSv7aeDMBlE');
  });

  it('refuses a missing or short KEY_ENCRYPTION_SECRET without echoing it', async () => {
    const missing = await tap({}, 'token-hash-secret');
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr.trim()).toBe('tap: invalid configuration: KEY_ENCRYPTION_SECRET is required');
    const short = await tap({ KEY_ENCRYPTION_SECRET: 'too-short-secret' }, 'token-hash-secret');
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('KEY_ENCRYPTION_SECRET must be at least 32 characters long');
    expect(short.stderr).not.toContain('too-short-secret');
  });
});
