import { describe, expect, it } from '@jest/globals';
import { buildFactLog } from '../facts/fact-log.js';
import type { EventFact } from '../facts/facts.js';
import { dayAt, fact } from '../testing/fact-builders.js';
import { dataFreshness } from './data-freshness.js';
import { engagement } from './engagement.js';
import { network } from './network.js';
import { networkEdges } from './network-edges.js';
import { responsiveness } from './responsiveness.js';

const at = (days: number): number => dayAt(days).getTime();
const log = (facts: EventFact[]) => buildFactLog(facts);

describe('engagement', () => {
  it('scores fresh activity against the rung target', () => {
    const score = engagement(
      log([fact('product.created', 10), fact('product.updated', 10)]),
      'ONBOARDED',
      at(10),
    );
    expect(score.value).toBe(63); // (3 + 2) / 8
    expect(score.eventIds).toEqual(['product.created@10', 'product.updated@10']);
  });

  it('halves a fact every 14 days and ignores facts beyond 56 days', () => {
    expect(engagement(log([fact('product.created', 0)]), 'ONBOARDED', at(14)).value).toBe(19); // 1.5 / 8
    expect(engagement(log([fact('product.created', 0)]), 'ONBOARDED', at(57)).value).toBe(0);
  });

  it('counts at most five facts of one kind per day', () => {
    const burst = Array.from({ length: 20 }, (_, i) => fact('product.viewed', 5, { productId: `p${i}` }));
    expect(engagement(log(burst), 'ONBOARDED', at(5)).value).toBe(31); // 5 x 0.5 / 8
  });

  it('expects more of tenants higher on the ladder', () => {
    const facts = log([fact('product.created', 1), fact('connection.accepted', 1)]);
    expect(engagement(facts, 'ONBOARDED', at(1)).value).toBeGreaterThan(
      engagement(facts, 'STRATEGIC', at(1)).value,
    );
  });
});

describe('network edges and the network component', () => {
  const edgeFacts = [
    fact('connection.accepted', 0, { connectionId: 'c1' }),
    fact('connection.accepted', 0, { connectionId: 'c2' }),
    fact('connection.accepted', 0, { connectionId: 'c3' }),
    fact('product.viewed', 40, { productId: 'p1', connectionId: 'c1' }),
    fact('data_request.answered', 10, { requestId: 'r1', connectionId: 'c2' }),
    fact('product.viewed', 45, { productId: 'p1', connectionId: 'c3' }),
    fact('connection.removed', 46, { connectionId: 'c3' }),
  ];

  it('ties a product view to the connection of the viewing partner tenant', () => {
    const facts = [
      fact('connection.accepted', 0, { connectionId: 'c1' }, { data: { partnerTenantId: 'acme' } }),
      fact('product.viewed', 5, { productId: 'p1' }, { data: { viewerTenantId: 'acme' } }),
      fact('product.viewed', 5, { productId: 'p2' }, { data: { viewerTenantId: 'stranger' } }),
    ];
    expect(networkEdges(log(facts), at(6))).toMatchObject({ live: 1, active: 1 });
  });

  it('counts live connections and those with an exchange in the last 30 days', () => {
    const edges = networkEdges(log(edgeFacts), at(50));
    expect(edges).toMatchObject({ live: 2, active: 1 });
  });

  it('scores half breadth against the rung target and half the active share', () => {
    const edges = networkEdges(log(edgeFacts), at(50));
    expect(network(edges, 'CONNECTED').value).toBe(50); // 0.5 x 1/2 + 0.5 x 1/2
    expect(network(networkEdges(log([]), at(1)), 'ONBOARDED')).toMatchObject({ present: true, value: 0 });
  });
});

describe('data freshness', () => {
  it('is absent until the tenant runs an import or integration', () => {
    expect(dataFreshness(log([fact('product.created', 1)]), at(1)).present).toBe(false);
  });

  it('multiplies the 7-day success rate by the freshness of the last good run', () => {
    const runs = [
      fact('import.completed', 10),
      fact('integration.failed', 11, { integrationId: 'i1' }),
      fact('integration.succeeded', 12, { integrationId: 'i1' }),
      fact('import.failed', 12),
    ];
    expect(dataFreshness(log(runs), at(12)).value).toBe(50); // 2 of 4, fresh
    expect(dataFreshness(log([fact('import.completed', 0)]), at(7)).value).toBe(50); // no recent runs, half-life 7 days
  });
});

describe('responsiveness', () => {
  it('is absent while nothing is due', () => {
    expect(responsiveness(log([fact('data_request.sent', 1, { requestId: 'r1' })]), at(3)).present).toBe(
      false,
    );
  });

  it('counts requests answered within 7 days and invitations accepted within 14', () => {
    const facts = [
      fact('data_request.sent', 0, { requestId: 'r1' }),
      fact('data_request.answered', 2, { requestId: 'r1' }),
      fact('data_request.sent', 0, { requestId: 'r2' }),
      fact('data_request.answered', 9, { requestId: 'r2' }),
      fact('connection.invited', 0, { connectionId: 'c1' }),
      fact('connection.accepted', 1, { connectionId: 'c1' }),
    ];
    const score = responsiveness(log(facts), at(10));
    expect(score.value).toBe(75); // mean of 1/2 and 1/1
    expect(score.reason).toBe(
      '50% of data requests answered in time; 100% of invitations answered in time (last 90 days, recent ones weigh more).',
    );
  });

  it('does not count a removed invitation as accepted', () => {
    const facts = [
      fact('connection.invited', 0, { connectionId: 'c1' }),
      fact('connection.removed', 1, { connectionId: 'c1' }),
    ];
    expect(responsiveness(log(facts), at(2)).value).toBe(0);
  });
});
