import type { Db } from 'mongodb';
import type { AnnouncedClient, CurrentClient } from '../domain/client-announcements.js';
import type { AnnouncementsRepository } from '../operations/ports/announcements-repository.js';
import { announcementsOver, type AnnouncedFields } from './announcements-collection.js';

interface ClientDocument extends AnnouncedFields<AnnouncedClient> {
  tenantId: string;
  name: string;
  scopes: string[];
  secretId: string;
  deletedAt: Date | null;
  announceVersion?: number;
}

/**
 * The oauth_client.* outbox over `oauth_clients` (its writes set the mark:
 * oauth-clients-repository.ts). A deleted client stays hidden until its deletion is announced;
 * the announcement removes it.
 */
export function clientAnnouncementsRepository(
  db: Db,
): AnnouncementsRepository<AnnouncedClient, CurrentClient> {
  return announcementsOver(db.collection<ClientDocument>('oauth_clients'), 'announceVersion', (doc) => ({
    clientId: doc._id,
    tenantId: doc.tenantId,
    name: doc.name,
    scopes: doc.scopes,
    secretId: doc.secretId,
    deleted: doc.deletedAt !== null,
  }));
}
