import { isRemoteCallError } from '@tap/grpc-kit';
import type { OperatorClients } from '../operator-clients.js';
import {
  createOAuthClient,
  createUser,
  listOAuthClients,
  resetPassword,
  rotateOAuthClientSecret,
} from './identity.js';
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

/** The name of each demo tenant's OAuth client (found again by name on a second run). */
export const DEMO_CLIENT_NAME = 'Demo integration';

export interface SeededTenant {
  readonly tenantId: string;
  readonly slug: string;
  readonly name: string;
  readonly tier: string;
  /** The OWNER's sign-in for `POST /auth/login`; the password is new on every run. */
  readonly owner: { readonly email: string; readonly password: string };
  /** For `POST /oauth/token`; the secret is new on every run (the client's secret is rotated). */
  readonly oauthClient: { readonly clientId: string; readonly clientSecret: string };
  /** An OWNER access token (15 minutes) minted with the operator credential. */
  readonly accessToken: string;
}

/**
 * The demo tenants with an OWNER and an OAuth client each. Secrets are stored only as hashes,
 * so a re-run cannot show the old ones: it sets a new password and rotates the client's secret.
 */
export async function seed(clients: OperatorClients): Promise<SeededTenant[]> {
  const seeded: SeededTenant[] = [];
  for (const demo of DEMO_TENANTS) {
    const tenant =
      (await findTenant(clients, demo.slug)) ?? (await createTenant(clients, demo.name, demo.slug));
    await setTier(clients, tenant.id, demo.tier);
    const email = `owner@${demo.slug}.example`;
    const owner = await ensureOwner(clients, tenant.id, email);
    const oauthClient = await ensureClient(clients, tenant.id);
    const { accessToken } = await issueToken(clients, tenant.id, 'OWNER', DEMO_SCOPES, owner.userId);
    seeded.push({
      tenantId: tenant.id,
      slug: tenant.slug,
      name: tenant.name,
      tier: demo.tier,
      owner: { email, password: owner.password },
      oauthClient,
      accessToken,
    });
  }
  return seeded;
}

async function ensureOwner(clients: OperatorClients, tenantId: string, email: string) {
  try {
    const { user, password } = await createUser(
      clients,
      tenantId,
      { email, firstName: 'Demo', lastName: 'Owner' },
      'OWNER',
    );
    return { userId: user.id, password };
  } catch (error) {
    if (!isRemoteCallError(error) || error.reason !== 'EMAIL_TAKEN') throw error;
    const { user, password } = await resetPassword(clients, email);
    return { userId: user.id, password };
  }
}

async function ensureClient(clients: OperatorClients, tenantId: string) {
  const existing = (await listOAuthClients(clients, tenantId)).find((c) => c.name === DEMO_CLIENT_NAME);
  const { client, clientSecret } = existing
    ? await rotateOAuthClientSecret(clients, tenantId, existing.clientId)
    : await createOAuthClient(clients, tenantId, DEMO_CLIENT_NAME, DEMO_SCOPES);
  return { clientId: client!.clientId, clientSecret };
}
