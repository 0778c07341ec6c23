import { describe, expect, it } from '@jest/globals';
import type { SeededTenant } from './seed.js';
import { stackBanner } from './stack-banner.js';

const tenant = (tier: string, slug: string): SeededTenant => ({
  tenantId: `id-${slug}`,
  slug,
  name: slug,
  tier,
  owner: { email: `owner@${slug}.example`, password: `pw-${slug}` },
  oauthClient: { clientId: `cid-${slug}`, clientSecret: `secret-${slug}` },
  accessToken: `token-${slug}`,
});

describe('the banner `npm run up` prints when the stack is ready (issue #12, part 6)', () => {
  const seeded = [tenant('SUPPLIER_FREE', 'demo-supplier-free'), tenant('CORE', 'demo-core')];
  const banner = stackBanner(seeded);

  it('names what to open: the API, the OpenAPI document, its reference page and readiness', () => {
    expect(banner).toContain('http://localhost:3000/api/v1\n');
    expect(banner).toContain('http://localhost:3000/api/v1/openapi.json');
    expect(banner).toContain('http://localhost:3000/api/v1/docs ');
    expect(banner).toContain('http://localhost:3000/readyz');
  });

  it('names the web console first, where a demo owner signs in with the printed password', () => {
    expect(banner).toContain('  console      http://localhost:3000/console/');
    expect(banner.indexOf('console      ')).toBeLessThan(banner.indexOf('API          '));
    expect(banner).not.toContain('There is no web console');
  });

  it('tells how to sign in as every demo tenant: owner e-mail and password, OAuth client', () => {
    for (const t of seeded) {
      expect(banner).toContain(`${t.owner.email}  password ${t.owner.password}`);
      expect(banner).toContain(`${t.oauthClient.clientId}  secret ${t.oauthClient.clientSecret}`);
      expect(banner).toContain(t.tenantId);
    }
    expect(banner).toContain(
      `-d '{"email":"owner@demo-core.example","password":"pw-demo-core"}' http://localhost:3000/api/v1/auth/login`,
    );
  });

  it('gives `npm run tap -- …` commands that need nothing sourced first', () => {
    expect(banner).toContain('npm run tap -- publish-event --tenant id-demo-core --kind product.created');
    expect(banner).toContain('npm run tap -- seed --json');
    expect(banner).not.toMatch(/source scripts|OPERATOR_TOKEN=/);
  });
});
