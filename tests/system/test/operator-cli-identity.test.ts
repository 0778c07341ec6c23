import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  FORM_HEADERS,
  form,
  openIdentityFixtures,
  type IdentityFixtures,
} from './support/identity-fixtures.js';
import { OPERATOR_TOKEN, startSystem, type System } from './support/system.js';

const CLI = fileURLToPath(new URL('../../../tools/cli/dist/main.js', import.meta.url));
const run = promisify(execFile);

interface Seeded {
  tenantId: string;
  slug: string;
  tier: string;
  owner: { email: string; password: string };
  oauthClient: { clientId: string; clientSecret: string };
  accessToken: string;
}

describe('the operator CLI: accounts, OAuth clients and the seed', () => {
  let system: System;
  let fx: IdentityFixtures;
  let tap: (...args: string[]) => Promise<unknown>;

  beforeAll(async () => {
    system = await startSystem('cli_identity', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
    const env = {
      ...process.env,
      ...system.operatorEnv,
      OPERATOR_TOKEN,
      IDENTITY_GRPC_ADDRESS: system.addresses.identity,
      ENTITLEMENTS_GRPC_ADDRESS: system.addresses.entitlements,
    };
    tap = async (...args) =>
      JSON.parse((await run(process.execPath, [CLI, ...args], { env })).stdout) as unknown;
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  const grant = (clientId: string, clientSecret: string) =>
    system.http('POST', '/api/v1/oauth/token', {
      headers: FORM_HEADERS,
      body: form({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
    });

  it("seed --json prints each demo tenant's owner credentials and OAuth client, all of which work", async () => {
    const seeded = (await tap('seed', '--json')) as Seeded[];
    expect(seeded.map((t) => t.tier)).toEqual([
      'SUPPLIER_FREE',
      'SUPPLIER_PLUS',
      'CORE',
      'SVC_CORE',
      'ENTERPRISE',
    ]);
    for (const tenant of seeded) {
      const login = await fx.login(tenant.owner);
      expect(login.status).toBe(200);
      expect((login.body as { data: { user: { role: string } } }).data.user.role).toBe('OWNER');
      expect((await grant(tenant.oauthClient.clientId, tenant.oauthClient.clientSecret)).status).toBe(200);
      // `tap token`'s operator-minted token still works as before.
      expect(
        (
          await system.http('GET', '/api/v1/tenant', {
            headers: { authorization: `Bearer ${tenant.accessToken}` },
          })
        ).status,
      ).toBe(200);
    }

    // A second run is idempotent for tenants and shows fresh secrets; the old ones stop working.
    const again = (await tap('seed', '--json')) as Seeded[];
    expect(again.map((t) => t.tenantId)).toEqual(seeded.map((t) => t.tenantId));
    expect(again[0]!.oauthClient.clientId).toBe(seeded[0]!.oauthClient.clientId);
    expect((await fx.login(seeded[0]!.owner)).status).toBe(401);
    expect((await fx.login(again[0]!.owner)).status).toBe(200);
    expect((await grant(seeded[0]!.oauthClient.clientId, seeded[0]!.oauthClient.clientSecret)).status).toBe(
      401,
    );
    expect((await grant(again[0]!.oauthClient.clientId, again[0]!.oauthClient.clientSecret)).status).toBe(
      200,
    );
  });

  it('creates a tenant with its owner, a user and an OAuth client', async () => {
    const created = (await tap(
      'create-tenant',
      '--name',
      'CLI Made Ltd',
      '--owner-email',
      'founder@cli-made.example',
      '--owner-first',
      'Fay',
      '--owner-last',
      'Founder',
    )) as {
      tenant: { id: string };
      owner: { role: string };
      password: string;
    };
    expect(created.owner.role).toBe('OWNER');
    expect((await fx.login({ email: 'founder@cli-made.example', password: created.password })).status).toBe(
      200,
    );

    const user = (await tap(
      'create-user',
      '--tenant',
      created.tenant.id,
      '--email',
      'admin@cli-made.example',
      '--first',
      'Ann',
      '--last',
      'Admin',
      '--role',
      'ADMIN',
    )) as {
      user: { role: string };
      password: string;
    };
    expect(user.user.role).toBe('ADMIN');
    const admin = await fx.login({ email: 'admin@cli-made.example', password: user.password });
    expect((admin.body as { data: { user: { role: string } } }).data.user.role).toBe('ADMIN');

    const client = (await tap(
      'create-client',
      '--tenant',
      created.tenant.id,
      '--name',
      'Importer',
      '--scope',
      'imports:write',
      '--scope',
      'products:read',
    )) as {
      client: { clientId: string; scopes: string[] };
      clientSecret: string;
    };
    expect(client.client.scopes).toEqual(['imports:write', 'products:read']);
    expect((await grant(client.client.clientId, client.clientSecret)).body).toMatchObject({
      scope: 'imports:write products:read',
    });
  });
});
