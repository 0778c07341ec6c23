import type { Collection, Db } from 'mongodb';
import type { StoredSigningKey, SigningKeysRepository } from '../operations/ports/signing-keys-repository.js';

interface KeyDocument extends Omit<StoredSigningKey, 'kid'> {
  _id: string;
}

interface PointerDocument {
  _id: 'current';
  kid: string;
  since: Date;
  /** Set by a rotation: `previousKid` keeps signing until `activatesAt`, then `kid` does. */
  previousKid?: string;
  activatesAt?: Date;
}

export function signingKeysRepository(db: Db): SigningKeysRepository {
  const keys: Collection<KeyDocument> = db.collection('signing_keys');
  const pointer: Collection<PointerDocument> = db.collection('signing_state');
  const toKey = (doc: KeyDocument): StoredSigningKey => ({
    kid: doc._id,
    publicJwk: doc.publicJwk,
    sealedPrivateJwk: doc.sealedPrivateJwk,
    createdAt: doc.createdAt,
    retiresAt: doc.retiresAt,
  });
  return {
    async insert(key) {
      const { kid, ...rest } = key;
      await keys.insertOne({ _id: kid, ...rest });
    },
    async claimCurrentIfNone(kid, now) {
      // One document decides which key is current; $setOnInsert makes the first replica win.
      const result = await pointer.findOneAndUpdate(
        { _id: 'current' },
        { $setOnInsert: { kid, since: now } },
        { upsert: true, returnDocument: 'after' },
      );
      return result?.kid ?? kid;
    },
    async currentPointer() {
      const doc = await pointer.findOne({ _id: 'current' });
      return doc ? { kid: doc.kid, previousKid: doc.previousKid, activatesAt: doc.activatesAt } : undefined;
    },
    async switchCurrent(fromKid, toKid, activatesAt, now) {
      const result = await pointer.updateOne(
        { _id: 'current', kid: fromKid },
        { $set: { kid: toKid, previousKid: fromKid, activatesAt, since: now } },
      );
      return result.modifiedCount === 1;
    },
    async switchCurrentNow(fromKid, toKid, now) {
      const result = await pointer.updateOne(
        { _id: 'current', kid: fromKid },
        { $set: { kid: toKid, since: now }, $unset: { previousKid: '', activatesAt: '' } },
      );
      return result.modifiedCount === 1;
    },
    async retire(kid, at) {
      await keys.updateOne({ _id: kid }, { $set: { retiresAt: at } });
    },
    async retireAllExcept(kid, at) {
      const filter = { _id: { $ne: kid }, $or: [{ retiresAt: null }, { retiresAt: { $gt: at } }] };
      const kids = (await keys.find(filter, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id);
      await keys.updateMany(filter, { $set: { retiresAt: at } });
      return kids;
    },
    async find(kid) {
      const doc = await keys.findOne({ _id: kid });
      return doc ? toKey(doc) : undefined;
    },
    async listVerifying(now) {
      const docs = await keys.find({ $or: [{ retiresAt: null }, { retiresAt: { $gt: now } }] }).toArray();
      return docs.map(toKey);
    },
    async listSealed() {
      const docs = await keys.find({}, { projection: { sealedPrivateJwk: 1 } }).toArray();
      return docs.map((doc) => ({ kid: doc._id, sealedPrivateJwk: doc.sealedPrivateJwk }));
    },
    async replaceSealed(kid, expected, next) {
      // On MongoDB the filter makes this a compare-and-set. FerretDB v1 matches and writes in
      // two steps, so two replicas re-sealing the same key at once may both write: the last
      // write wins, and since both seal the same private key under the same current secret,
      // either value is right. The caller reads the key back until it finds it sealed under
      // its current secret. (What a concurrent rewrite of the whole document could undo is a
      // re-sealing, never the key itself; the next start finds and redoes it.)
      const result = await keys.updateOne(
        { _id: kid, sealedPrivateJwk: expected },
        { $set: { sealedPrivateJwk: next } },
      );
      return result.modifiedCount === 1;
    },
    async remove(kid) {
      await keys.deleteOne({ _id: kid });
    },
  };
}
