import type { OAuthClient as WireClient, Tenant as WireTenant, User as WireUser } from '@tap/contracts';
import type { OAuthClient } from '../domain/oauth-client.js';
import type { Tenant } from '../domain/tenant.js';
import type { User } from '../domain/user.js';

/** A tenant as the contract shows it. */
export const tenantToWire = (tenant: Tenant): WireTenant => ({
  id: tenant.id,
  name: tenant.name,
  slug: tenant.slug,
  createdAt: tenant.createdAt.toISOString(),
});

/** A user as the contract shows it: never the password hash. */
export const userToWire = (user: User): WireUser => ({
  id: user.id,
  tenantId: user.tenantId,
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
  role: user.role,
  active: user.active,
  createdAt: user.createdAt.toISOString(),
});

/** A client as callers see it: never its secret, nor the secret's hash or id. */
export const clientToWire = (client: OAuthClient): WireClient => ({
  clientId: client.clientId,
  tenantId: client.tenantId,
  name: client.name,
  scopes: [...client.scopes],
  createdAt: client.createdAt.toISOString(),
  secretRotatedAt: client.secretRotatedAt.toISOString(),
});
