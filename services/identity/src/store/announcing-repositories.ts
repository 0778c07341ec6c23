import type { OAuthClientsRepository } from '../operations/ports/oauth-clients-repository.js';
import type { UsersRepository } from '../operations/ports/users-repository.js';

/**
 * Users whose membership changes are announced at once after the write, off the caller's path
 * (the write itself set the outbox mark, so a failed announcement is the relay's to retry).
 * `announce` never rejects.
 */
export function announcingUsers(users: UsersRepository, announce: (userId: string) => void): UsersRepository {
  const after = async <T>(userId: string, write: Promise<T>): Promise<T> => {
    const result = await write;
    announce(userId);
    return result;
  };
  return {
    ...users,
    insert: (user, hash) => after(user.id, users.insert(user, hash)),
    activate: (tenantId, userId) => after(userId, users.activate(tenantId, userId)),
    deactivate: (tenantId, userId, now) => after(userId, users.deactivate(tenantId, userId, now)),
    place: (userId, from, to) => after(userId, users.place(userId, from, to)),
    setRole: (tenantId, userId, role) => after(userId, users.setRole(tenantId, userId, role)),
  };
}

/** OAuth clients whose creation, rotation and deletion are announced at once (as announcingUsers). */
export function announcingClients(
  clients: OAuthClientsRepository,
  announce: (clientId: string) => void,
): OAuthClientsRepository {
  const after = async <T>(clientId: string, write: Promise<T>): Promise<T> => {
    const result = await write;
    announce(clientId);
    return result;
  };
  return {
    ...clients,
    insert: (client, hash) => after(client.clientId, clients.insert(client, hash)),
    replaceSecret: (tenantId, clientId, expected, next, now) =>
      after(clientId, clients.replaceSecret(tenantId, clientId, expected, next, now)),
    markDeleted: (tenantId, clientId, now) => after(clientId, clients.markDeleted(tenantId, clientId, now)),
  };
}
