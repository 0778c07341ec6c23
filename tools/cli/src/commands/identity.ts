import { randomBytes } from 'node:crypto';
import { unaryCall } from '@tap/grpc-kit';
import type { OperatorClients } from '../operator-clients.js';

/** A password for an account the CLI creates: 144 random bits, printed once, never stored here. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/** Who a new account is for. */
export interface NewAccount {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
}

const operator = (clients: OperatorClients) => ({ authorization: clients.authorization });

/** A tenant and its OWNER; returns both and the owner's generated password. */
export async function createTenantWithOwner(
  clients: OperatorClients,
  name: string,
  slug: string,
  owner: NewAccount,
) {
  const password = generatePassword();
  const created = await unaryCall(
    clients.identity,
    'CreateTenantWithOwner',
    { name, slug, owner: { ...owner, password } },
    operator(clients),
  );
  return { tenant: created.tenant, owner: created.owner, password };
}

/** A user in a tenant; returns it and its generated password. */
export async function createUser(
  clients: OperatorClients,
  tenantId: string,
  account: NewAccount,
  role: string,
) {
  const password = generatePassword();
  const user = await unaryCall(
    clients.identity,
    'CreateUser',
    { tenantId, user: { ...account, password }, role },
    operator(clients),
  );
  return { user, password };
}

/** Sets a new generated password (and so ends the user's sessions); returns it. */
export async function resetPassword(clients: OperatorClients, email: string) {
  const password = generatePassword();
  const user = await unaryCall(clients.identity, 'SetUserPassword', { email, password }, operator(clients));
  return { user, password };
}

/** An OAuth client; its secret is in the answer and nowhere else. */
export async function createOAuthClient(
  clients: OperatorClients,
  tenantId: string,
  name: string,
  scopes: string[],
) {
  const created = await unaryCall(
    clients.identity,
    'CreateOAuthClient',
    { tenantId, name, scopes },
    operator(clients),
  );
  return { client: created.client, clientSecret: created.clientSecret };
}

/** A tenant's OAuth clients (never their secrets). */
export async function listOAuthClients(clients: OperatorClients, tenantId: string) {
  return (await unaryCall(clients.identity, 'ListOAuthClients', { tenantId }, operator(clients))).clients;
}

/** A new secret for a client; the old one stops at once. */
export async function rotateOAuthClientSecret(clients: OperatorClients, tenantId: string, clientId: string) {
  const rotated = await unaryCall(
    clients.identity,
    'RotateOAuthClientSecret',
    { tenantId, clientId },
    operator(clients),
  );
  return { client: rotated.client, clientSecret: rotated.clientSecret };
}

/**
 * Starts a signing-key rotation: the new key signs from `activatesAt`, the old one verifies on.
 * With `retirePreviousNow` (a key compromise) the new key signs at once and every earlier key
 * leaves the JWKS at once.
 */
export async function rotateSigningKey(clients: OperatorClients, retirePreviousNow = false) {
  return unaryCall(clients.identity, 'RotateSigningKey', { retirePreviousNow }, operator(clients));
}
