import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { contracts } from '@tap/contracts';
import { RPC_ALLOWLIST, SERVICE_IDENTITIES } from './rpc-allowlist.js';

const services = [
  contracts().identity.IdentityService.service,
  contracts().adoption.AdoptionService.service,
  contracts().entitlements.EntitlementsService.service,
  contracts().notifications.NotificationsService.service,
];
const paths = services.flatMap((service) => Object.values(service).map((method) => method.path));
const allowlist: Readonly<Record<string, readonly string[]>> = RPC_ALLOWLIST;

describe('the RPC allowlist', () => {
  it('has an entry for every RPC of every proto service, and none for an RPC that does not exist', () => {
    expect(paths.filter((path) => !Object.hasOwn(allowlist, path))).toEqual([]);
    expect(Object.keys(allowlist).filter((path) => !paths.includes(path))).toEqual([]);
  });

  it('names only known identities, and at least one for every RPC', () => {
    for (const [path, callers] of Object.entries(allowlist)) {
      expect([path, callers.length > 0]).toEqual([path, true]);
      for (const caller of callers) expect(SERVICE_IDENTITIES).toContain(caller);
    }
  });

  it('lets only the gateway call the sign-in RPCs', () => {
    for (const method of [
      'SsoSignIn',
      'Login',
      'Refresh',
      'RedeemMagicLink',
      'IssueClientToken',
      'StartSignup',
    ])
      expect(allowlist[`/tap.identity.v1.IdentityService/${method}`]).toEqual(['gateway']);
  });

  it('lets only the operator call the operator RPCs', () => {
    const operatorOnly = [
      '/tap.identity.v1.IdentityService/CreateTenant',
      '/tap.identity.v1.IdentityService/CreateTenantWithOwner',
      '/tap.identity.v1.IdentityService/CreateUser',
      '/tap.identity.v1.IdentityService/IssueAccessToken',
      '/tap.identity.v1.IdentityService/SetUserPassword',
      '/tap.identity.v1.IdentityService/RotateSigningKey',
      '/tap.identity.v1.IdentityService/ClaimJoinDomain',
      '/tap.entitlements.v1.EntitlementsService/SetTier',
    ];
    for (const path of operatorOnly) expect([path, allowlist[path]]).toEqual([path, ['operator']]);
  });

  it('is the table docs/security.md shows, row for row', () => {
    const doc = readFileSync(new URL('../../../docs/security.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `(\/tap\.[^`]+)` +\| ([^|]+?) +\|$/gm)].map(
      ([, path, callers]) => [path, (callers ?? '').split(', ')] as const,
    );
    expect(Object.fromEntries(rows)).toEqual(allowlist);
  });
});
