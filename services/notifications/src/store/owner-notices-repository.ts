import { isDuplicateKey } from '@tap/errors';
import type { Collection, Db } from 'mongodb';
import type { OwnerNotice, OwnerNoticesRepository } from '../operations/ports.js';

type NoticeDocument = Omit<OwnerNotice, 'id'> & { _id: string; sentAt: Date | null; recipients?: number };

/**
 * Mails to a tenant's OWNERs still to send (`owner_notices`): written when the endpoint is
 * disabled, marked sent after the SMTP server took the message, so a mail server that is down
 * delays the notice and loses none. One per endpoint and disabling (the id says which).
 */
export function ownerNoticesRepository(db: Db): OwnerNoticesRepository {
  const notices: Collection<NoticeDocument> = db.collection('owner_notices');
  return {
    async add({ id, ...rest }) {
      try {
        await notices.insertOne({ _id: id, ...rest, sentAt: null });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    },
    async pending(limit) {
      const docs = await notices.find({ sentAt: null }).sort({ createdAt: 1 }).limit(limit).toArray();
      return docs.map(({ _id, sentAt: _sent, recipients: _r, ...rest }) => ({ id: _id, ...rest }));
    },
    async markSent(id, at, recipients) {
      await notices.updateOne({ _id: id }, { $set: { sentAt: at, recipients } });
    },
    async deleteSentBefore(cutoff) {
      return (await notices.deleteMany({ sentAt: { $ne: null, $lt: cutoff } })).deletedCount;
    },
  };
}
