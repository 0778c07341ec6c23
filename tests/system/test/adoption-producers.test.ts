import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { event } from './support/adoption-api.js';
import { openIdentityFixtures, type IdentityFixtures } from './support/identity-fixtures.js';
import { startSystem, type HttpResponse, type System } from './support/system.js';
import { waitFor } from './support/wait-for.js';

/*
 * Adoption as a producer of outbound events (issue 24): product events on the bus move the
 * tenant's rung, adoption writes adoption.rung_changed into its outbox with that write and
 * publishes it on the domain stream, and the notifications service shows it in the events feed;
 * a manual completion reaches the audit log with the caller as its actor.
 */

interface EventJson {
  id: string;
  type: string;
  tenantId: string;
  data: Record<string, unknown>;
}

const data = <T>(response: HttpResponse): T => (response.body as { data: T }).data;
const PARTNER = '7d1c6a52-1b0e-4a55-9d43-0c8f6f1b2a01';

describe('adoption’s outbound events through the gateway', () => {
  let system: System;
  let fx: IdentityFixtures;
  let tenantId: string;
  let owner: Record<string, string>;

  beforeAll(async () => {
    system = await startSystem('adoptprod');
    fx = await openIdentityFixtures(system);
    const account = await fx.tenantWithOwner('Producer Foods');
    tenantId = account.tenantId;
    await system.setTier(tenantId, 'CORE');
    owner = { authorization: `Bearer ${(await fx.signIn(account)).accessToken}` };
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  const feed = async (types: string): Promise<EventJson[]> =>
    data<{ events: EventJson[] }>(
      await system.http('GET', `/api/v1/tenant/events?types=${types}`, { headers: owner }),
    ).events;

  it('shows adoption.rung_changed in the events feed after the product events that moved the rung', async () => {
    const now = new Date();
    await system.publish(event(tenantId, 'company.profile_completed', {}, now));
    await system.publish(
      event(tenantId, 'connection.invited', { connectionId: 'c-1' }, now, { partnerTenantId: PARTNER }),
    );
    await system.publish(
      event(tenantId, 'connection.accepted', { connectionId: 'c-1' }, now, { partnerTenantId: PARTNER }),
    );
    // Published right after adoption's write; the feed has it once notifications consumed it.
    await waitFor(async () => ((await feed('adoption.rung_changed')).length > 0 ? true : undefined));
    expect(await feed('adoption.rung_changed')).toEqual([
      expect.objectContaining({ tenantId, data: { from: 'ONBOARDED', to: 'CONNECTED' } }),
    ]);
  });

  it('records a manual milestone completion in the audit log with the signed-in user as actor', async () => {
    const done = await system.http('POST', '/api/v1/tenant/adoption/milestones/kickoff_call_held/complete', {
      headers: owner,
      body: {},
    });
    expect(done.status).toBe(200);
    const entries = async () =>
      data<{
        entries: { action: string; actor: { type: string; id?: string }; target: { id: string } | null }[];
      }>(
        await system.http('GET', '/api/v1/tenant/audit-events?action=milestone.completed_manually', {
          headers: owner,
        }),
      ).entries;
    await waitFor(async () => ((await entries()).length > 0 ? true : undefined));
    expect(await entries()).toEqual([
      expect.objectContaining({
        action: 'milestone.completed_manually',
        actor: expect.objectContaining({ type: 'user' }),
        target: expect.objectContaining({ id: 'kickoff_call_held' }),
      }),
    ]);
  });
});
