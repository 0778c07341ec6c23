import { unaryCall } from '@tap/grpc-kit';
import type { ServiceClients } from '../../clients.js';

/** The spec's cookie-session user (spec "Resources": the user, its names and its tenant). */
export interface CookieSessionUser {
  readonly id: string;
  readonly email: string;
  readonly role: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly tenantId: string;
  readonly tenant: {
    readonly id: string;
    readonly name: string;
    readonly slug: string;
    readonly subscriptionTier: string;
  };
}

interface WireUser {
  readonly id: string;
  readonly email: string;
  readonly role: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly tenantId: string;
}

/** The user of a just-issued session, with its tenant (identity) and tier (entitlements). */
export async function cookieSessionUser(
  clients: ServiceClients,
  user: WireUser,
  accessToken: string,
): Promise<CookieSessionUser> {
  const settings = { authorization: `Bearer ${accessToken}` };
  const [tenant, tier] = await Promise.all([
    unaryCall(clients.identity, 'GetTenant', {}, settings),
    unaryCall(clients.entitlements, 'GetTier', {}, settings),
  ]);
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    firstName: user.firstName,
    lastName: user.lastName,
    tenantId: user.tenantId,
    tenant: { id: tenant.id, name: tenant.name, slug: tenant.slug, subscriptionTier: tier.tierCode },
  };
}
