import type { OperatorClients } from '../operator-clients.js';
import { createTenant, findTenant, issueToken, setTier } from './tenants.js';

/** One demo tenant per tier, found again by slug on a second run (seeding is idempotent). */
export const DEMO_TENANTS = [
  { slug: 'demo-supplier-free', name: 'Demo Supplier Free', tier: 'SUPPLIER_FREE' },
  { slug: 'demo-supplier-plus', name: 'Demo Supplier Plus', tier: 'SUPPLIER_PLUS' },
  { slug: 'demo-core', name: 'Demo Core', tier: 'CORE' },
  { slug: 'demo-svc-core', name: 'Demo SVC Core', tier: 'SVC_CORE' },
  { slug: 'demo-enterprise', name: 'Demo Enterprise', tier: 'ENTERPRISE' },
] as const;

export const DEMO_SCOPES = [
  'products:read',
  'products:write',
  'connections:read',
  'connections:write',
  'imports:write',
  'traceability:read',
  'dpp:read',
];

export interface SeededTenant {
  readonly tenantId: string;
  readonly slug: string;
  readonly name: string;
  readonly tier: string;
  /** An OWNER access token (15 minutes) minted with the operator credential. */
  readonly accessToken: string;
}

export async function seed(clients: OperatorClients): Promise<SeededTenant[]> {
  const seeded: SeededTenant[] = [];
  for (const demo of DEMO_TENANTS) {
    const tenant = (await findTenant(clients, demo.slug)) ?? (await createTenant(clients, demo.name, demo.slug));
    await setTier(clients, tenant.id, demo.tier);
    const { accessToken } = await issueToken(clients, tenant.id, 'OWNER', DEMO_SCOPES, `owner@${demo.slug}.example`);
    seeded.push({ tenantId: tenant.id, slug: tenant.slug, name: tenant.name, tier: demo.tier, accessToken });
  }
  return seeded;
}
