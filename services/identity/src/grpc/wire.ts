import type {
  Member as WireMember,
  OAuthClient as WireClient,
  Tenant as WireTenant,
  User as WireUser,
} from '@tap/contracts';
import { memberStatus } from '../domain/members.js';
import type { JWK } from 'jose';
import type { OAuthClient } from '../domain/oauth-client.js';
import type { JoinRequest } from '../operations/ports/join-repository.js';
import type { Tenant } from '../domain/tenant.js';
import type { User } from '../domain/user.js';
import type { RotationResult } from '../keys/key-ring.js';

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

/** A member as the team page lists it. */
export const memberToWire = (user: User): WireMember => ({
  id: user.id,
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
  role: user.role,
  status: memberStatus(user),
  ...(user.lastSignInAt ? { lastSignInAt: user.lastSignInAt.toISOString() } : {}),
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

/** A public key as GetJwks lists it: the EC fields of an ES256 key, empty when absent. */
export const jwkToWire = (key: JWK) => ({
  kid: key.kid ?? '',
  kty: key.kty ?? '',
  alg: key.alg ?? '',
  use: key.use ?? '',
  crv: key.crv ?? '',
  x: key.x ?? '',
  y: key.y ?? '',
});

/** A rotation as RotateSigningKey answers it. */
export const rotationToWire = (rotated: RotationResult) => ({
  kid: rotated.kid,
  activatesAt: rotated.activatesAt.toISOString(),
  previousKid: rotated.previousKid,
  previousRetiresAt: rotated.previousRetiresAt.toISOString(),
});

/** A join request as the contract shows it. */
export const joinRequestToWire = (request: JoinRequest) => ({
  id: request.id,
  tenantId: request.tenantId,
  userId: request.userId,
  email: request.email,
  firstName: request.firstName,
  lastName: request.lastName,
  status: request.status,
  createdAt: request.createdAt.toISOString(),
});
