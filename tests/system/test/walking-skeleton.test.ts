import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { infraUrls } from '@tap/testkit';
import { startSystem, OPERATOR_TOKEN, type System } from './support/system.js';
import { waitFor } from './support/wait-for.js';

const CLI = fileURLToPath(new URL('../../../tools/cli/dist/main.js', import.meta.url));
const run = promisify(execFile);

interface Milestone {
  key: string;
  status: string;
}

describe('the walking skeleton', () => {
  let system: System;
  let tenantId: string;
  let bearer: string;

  beforeAll(async () => {
    system = await startSystem('skeleton');
    tenantId = await system.createTenant('Skeleton Foods');
    await system.setTier(tenantId, 'CORE');
    bearer = `Bearer ${await system.token(tenantId)}`;
  });

  afterAll(async () => {
    await system?.stop();
  });

  it('answers an authenticated request through identity and entitlements over gRPC', async () => {
    const response = await system.http('GET', '/api/v1/tenant', { headers: { authorization: bearer } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: { id: tenantId, name: 'Skeleton Foods', slug: 'skeleton-foods', subscriptionTier: 'CORE' },
    });
  });

  it('refuses a request without a valid token with 401 invalid_token', async () => {
    const missing = await system.http('GET', '/api/v1/tenant');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    const forged = await system.http('GET', '/api/v1/tenant', { headers: { authorization: `${bearer}x` } });
    expect(forged.status).toBe(401);
  });

  it('delivers a product event published by the operator CLI to the adoption consumer', async () => {
    const { stdout } = await run(
      process.execPath,
      [CLI, 'publish-event', '--tenant', tenantId, '--kind', 'product.created', '--subject', 'productId=p-1'],
      {
        env: {
          ...process.env,
          OPERATOR_TOKEN,
          NATS_URL: infraUrls().natsUrl,
          EVENTS_SUBJECT_PREFIX: system.events.subjectPrefix,
          EVENTS_STREAM: system.events.streamName,
        },
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({ duplicate: false });
    const milestone = await waitFor(async () => {
      const response = await system.http('GET', '/api/v1/tenant/adoption/state', {
        headers: { authorization: bearer },
      });
      const first = (response.body as { data: { milestones: Milestone[] } }).data.milestones.find(
        (m) => m.key === 'first_product_created',
      );
      return first?.status === 'DONE' ? first : undefined;
    });
    expect(milestone.status).toBe('DONE');
  });

  it('keeps each tenant to its own state', async () => {
    const otherTenant = await system.createTenant('Other Co');
    const other = `Bearer ${await system.token(otherTenant)}`;
    const response = await system.http('GET', '/api/v1/tenant/adoption/state', {
      headers: { authorization: other },
    });
    const body = response.body as { data: { companyId: string; milestones: Milestone[] } };
    expect(body.data.companyId).toBe(otherTenant);
    expect(body.data.milestones.find((m) => m.key === 'first_product_created')?.status).not.toBe('DONE');
  });
});
