import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isRemoteCallError } from '@tap/grpc-kit';
import { startProcessStack, type ProcessStack } from './support/process-stack.js';

/*
 * Seats with real processes (issue #22): entitlements killed (SIGKILL) while identity makes a
 * user active. Nothing is half-made: no user without a seat, no seat without a user; once a new
 * entitlements process is up, the same activation succeeds. The interleavings a kill cannot hit
 * on purpose (identity gone between the seat and the activation) are in seats.test.ts.
 */
describe('seats when entitlements is killed', () => {
  let stack: ProcessStack;
  beforeAll(async () => {
    stack = await startProcessStack('seats_crash');
  }, 90_000);
  afterAll(async () => {
    await stack?.stop();
  }, 20_000);

  const owner = (n: string) => ({
    email: `owner-${n}@seats-crash.example`,
    password: `owner passphrase ${n}`,
    firstName: 'Olive',
    lastName: 'Owner',
  });
  const usersCurrent = async (account: { email: string; password: string }) => {
    const login = await fetch(`${stack.base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    const usage = await fetch(`${stack.base}/api/v1/entitlements/usage`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await usage.json()) as { data: { limits: Record<string, { current: number }> } };
    return body.data.limits['MAX_USERS']!.current;
  };

  it('creates no user and holds no seat while entitlements is dead, and the same sign-up works once it is back', async () => {
    const first = owner('first');
    const { tenantId } = await stack.createTenantWithOwner('Before Crash', first);
    expect(await usersCurrent(first)).toBe(1);

    const entitlements = stack.process('entitlements');
    entitlements.child.kill('SIGKILL');
    await entitlements.exited();

    const second = owner('second');
    const refused = await stack.createTenantWithOwner('During Crash', second).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isRemoteCallError(refused)).toBe(true);
    const identityDb = stack.mongo.db(stack.databases.identity);
    expect(await identityDb.collection('users').findOne({ email: second.email })).toBeNull();
    expect(await identityDb.collection('tenants').countDocuments({ name: 'During Crash' })).toBe(0);
    // The intent stays for the reconciliation job; the seat it was for was never taken.
    const intents = await identityDb.collection('seat_intents').find({}).toArray();
    const entitlementsDb = stack.mongo.db(stack.databases.entitlements);
    for (const intent of intents)
      expect(await entitlementsDb.collection('seats').findOne({ userId: intent['userId'] })).toBeNull();

    await stack.roll('entitlements');
    const { tenantId: secondTenant } = await stack.createTenantWithOwner('After Crash', second);
    expect(await usersCurrent(second)).toBe(1);
    expect(await usersCurrent(first)).toBe(1);
    // Exactly one seat per active user across both tenants.
    for (const tenant of [tenantId, secondTenant]) {
      const active = await identityDb.collection('users').find({ tenantId: tenant, active: true }).toArray();
      const seats = await entitlementsDb.collection('seats').find({ tenantId: tenant }).toArray();
      expect(seats.map((s) => String(s['userId'])).sort()).toEqual(
        active.map((u) => String(u['_id'])).sort(),
      );
    }
  }, 120_000);
});
