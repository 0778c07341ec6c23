import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

// The root eslint.config.js as it is, without type information: a fixture string has no
// tsconfig, and the layer rule does not need one.
const eslint = new ESLint({ cwd: ROOT, overrideConfig: tseslint.configs.disableTypeChecked });

/** The no-restricted-imports messages ESLint reports for `code` placed at `path` (from the root). */
async function layerErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${path}` });
  if (!result) throw new Error(`ESLint returned no result for ${path}`);
  // A fixture nobody lints (an ignored path) would pass every "allowed" case: refuse it.
  expect(result.messages.filter((m) => m.message.includes('File ignored'))).toEqual([]);
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the import layers of a service', () => {
  it('refuses a store that imports a gRPC handler or the gRPC kit', async () => {
    const errors = await layerErrors(
      'services/identity/src/store/fixture-repository.ts',
      [
        "import { tenantHandlers } from '../grpc/tenant-handlers.js';",
        "import { DependencyUnavailableError } from '@tap/grpc-kit';",
        'export const used = [tenantHandlers, DependencyUnavailableError];',
      ].join('\n'),
    );
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/store\/ implements the operations/);
  });

  it('lets a store import the domain, the ports it implements and @tap/errors', async () => {
    const errors = await layerErrors(
      'services/identity/src/store/fixture-repository.ts',
      [
        "import type { Tenant } from '../domain/tenant.js';",
        "import type { TenantsRepository } from '../operations/ports.js';",
        "import { isDuplicateKey } from '@tap/errors';",
        "import type { Db } from 'mongodb';",
        'export type Used = [Tenant, TenantsRepository, Db, typeof isDuplicateKey];',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  it('refuses an operation that reaches into store/, however deep it sits', async () => {
    expect(
      await layerErrors(
        'services/adoption/src/operations/fixture-use-case.ts',
        "import type { X } from '../store/x.js';\nexport type Y = X;",
      ),
    ).toHaveLength(1);
    expect(
      await layerErrors(
        'services/adoption/src/operations/group/fixture-use-case.ts',
        "import type { X } from '../../store/x.js';\nexport type Y = X;",
      ),
    ).toHaveLength(1);
    expect(
      await layerErrors(
        'services/adoption/src/operations/fixture-use-case.ts',
        "import { connect } from '@nats-io/transport-node';\nexport const c = connect;",
      ),
    ).toHaveLength(1);
  });

  it('lets an operation import the domain, its own ports and telemetry', async () => {
    const errors = await layerErrors(
      'services/adoption/src/operations/group/fixture-use-case.ts',
      [
        "import type { Tenant } from '../../domain/tenant.js';",
        "import type { Ports } from '../ports.js';",
        "import { withSpan } from '@tap/telemetry';",
        'export type Used = [Tenant, Ports, typeof withSpan];',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  it('refuses a gRPC handler, event consumer or job that imports store/', async () => {
    for (const layer of ['grpc', 'events', 'jobs'])
      expect(
        await layerErrors(
          `services/entitlements/src/${layer}/fixture.ts`,
          "import { usageRepository } from '../store/usage-repository.js';\nexport const u = usageRepository;",
        ),
      ).toHaveLength(1);
  });

  it('keeps the domain pure: no driver, no runtime node: module, nothing outside domain/', async () => {
    const errors = await layerErrors(
      'services/entitlements/src/domain/usage/fixture.ts',
      [
        "import { createHash } from 'node:crypto';",
        "import type { Db } from 'mongodb';",
        "import { loadConfig } from '../../config.js';",
        'export type Used = [typeof createHash, Db, typeof loadConfig];',
      ].join('\n'),
    );
    expect(errors).toHaveLength(3);
  });

  it('lets the domain import types of node: modules, its own modules, @tap/errors and @tap/contracts', async () => {
    const errors = await layerErrors(
      'services/entitlements/src/domain/usage/fixture.ts',
      [
        "import type { BinaryLike } from 'node:crypto';",
        "import { defineErrors } from '@tap/errors';",
        "import type { EventKind } from '@tap/contracts';",
        "import type { Tier } from '../catalogue/tier.js';",
        "import type { Period } from './periods.js';",
        'export type Used = [BinaryLike, typeof defineErrors, EventKind, Tier, Period];',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });
});

describe('the import layers of the packages', () => {
  it('refuses a package that imports a service', async () => {
    expect(
      await layerErrors(
        'packages/runtime/src/fixture.ts',
        "import { buildApp } from '@tap/identity';\nexport const b = buildApp;",
      ),
    ).toHaveLength(1);
  });

  it('keeps @tap/errors free of every other package of ours', async () => {
    expect(
      await layerErrors(
        'packages/errors/src/fixture.ts',
        "import type { EventKind } from '@tap/contracts';\nexport type K = EventKind;",
      ),
    ).toHaveLength(1);
  });

  it('keeps the domain-ish packages free of transport', async () => {
    expect(
      await layerErrors(
        'packages/tokens/src/fixture.ts',
        "import { unaryCall } from '@tap/grpc-kit';\nexport const u = unaryCall;",
      ),
    ).toHaveLength(1);
    expect(
      await layerErrors(
        'packages/tokens/src/fixture.ts',
        "import { DomainError } from '@tap/errors';\nexport const d = DomainError;",
      ),
    ).toEqual([]);
  });
});
