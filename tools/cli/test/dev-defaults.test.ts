import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';
import { infraUrls, testNamespace } from '@tap/testkit';

const CLI = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const run = promisify(execFile);

/** Runs the built CLI as a new terminal would: only PATH and `env`, no dev-env.sh sourced. */
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

describe('tap in a new terminal (issue #12: "OPERATOR_TOKEN is required")', () => {
  const tenant = randomUUID();
  it('against a loopback stack, takes OPERATOR_TOKEN from config/dev.env and says so once on stderr', async () => {
    const ns = testNamespace('cli dev defaults');
    const env = {
      NATS_URL: infraUrls().natsUrl,
      EVENTS_STREAM: ns.toUpperCase(),
      EVENTS_SUBJECT_PREFIX: ns,
    };
    const out = await tap(
      env,
      'publish-event',
      '--tenant',
      tenant,
      '--kind',
      'product.created',
      '--subject',
      'productId=p-1',
    );
    expect(out.stderr).not.toContain('OPERATOR_TOKEN is required');
    expect(out.stderr.match(/development defaults/g)).toHaveLength(1);
    expect(out.stderr).toContain('OPERATOR_TOKEN');
    expect(out.stderr).toContain('config/dev.env');
    // The default's value never reaches the output.
    expect(out.stderr + out.stdout).not.toContain('dev-operator-token');
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ event: { tenantId: tenant, type: 'product.created' } });
  });

  it('against a remote target, still refuses without OPERATOR_TOKEN and uses no default', async () => {
    const out = await tap({ IDENTITY_GRPC_ADDRESS: 'identity.internal:50051' }, 'token', '--tenant', tenant);
    expect(out.code).toBe(1);
    expect(out.stderr.trim()).toBe('tap: invalid configuration: OPERATOR_TOKEN is required');
  });

  it('a set OPERATOR_TOKEN wins and nothing is announced', async () => {
    const ns = testNamespace('cli dev defaults set');
    const out = await tap(
      {
        OPERATOR_TOKEN: 'o'.repeat(40),
        NATS_URL: infraUrls().natsUrl,
        EVENTS_STREAM: ns.toUpperCase(),
        EVENTS_SUBJECT_PREFIX: ns,
      },
      'publish-event',
      '--tenant',
      tenant,
      '--kind',
      'product.created',
      '--subject',
      'productId=p-1',
    );
    expect(out).toMatchObject({ code: 0, stderr: '' });
  });
});
