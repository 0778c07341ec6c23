import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from '@tap/errors';
import type { ExternalIdentitiesRepository } from '../operations/ports/external-identities-repository.js';

interface ExternalIdentityDocument {
  /** `${provider}:${subject}`: an OpenID Provider's subject is unique only within that provider. */
  _id: string;
  tenantId: string;
  userId: string;
  createdAt: Date;
}

export function externalIdentitiesRepository(db: Db): ExternalIdentitiesRepository {
  const identities: Collection<ExternalIdentityDocument> = db.collection('external_identities');
  return {
    async find(provider, subject) {
      const doc = await identities.findOne({ _id: `${provider}:${subject}` });
      return doc ? { tenantId: doc.tenantId, userId: doc.userId } : undefined;
    },
    async link(provider, subject, user, now) {
      try {
        await identities.insertOne({
          _id: `${provider}:${subject}`,
          tenantId: user.tenantId,
          userId: user.userId,
          createdAt: now,
        });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    },
  };
}
