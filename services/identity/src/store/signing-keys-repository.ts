import type { Collection, Db } from 'mongodb';
import type { JWK } from 'jose';

export interface StoredSigningKey {
  readonly kid: string;
  readonly publicJwk: JWK;
  /** The private JWK sealed as a JWE under the key-encryption secret; never stored in clear. */
  readonly sealedPrivateJwk: string;
  readonly createdAt: Date;
  /** When set, the key stops appearing in the JWKS after this instant. */
  readonly retiresAt: Date | null;
}

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

/** Which key signs: `kid` from `activatesAt` on (always, when unset), `previousKid` before. */
export interface SigningPointer {
  readonly kid: string;
  readonly previousKid: string | undefined;
  readonly activatesAt: Date | undefined;
}

export interface SigningKeysRepository {
  insert(key: StoredSigningKey): Promise<void>;
  /** Makes `kid` current only if no key is current yet; returns the current kid either way. */
  claimCurrentIfNone(kid: string, now: Date): Promise<string>;
  currentPointer(): Promise<SigningPointer | undefined>;
  /**
   * Compare-and-set of the pointer: only while `fromKid` is the current kid, so of two
   * concurrent rotations one wins. True when this call moved it.
   */
  switchCurrent(fromKid: string, toKid: string, activatesAt: Date, now: Date): Promise<boolean>;
  /**
   * Compare-and-set like `switchCurrent`, for an emergency rotation: `toKid` signs from now on and
   * the pointer names no previous key, so no replica signs with it again once it has polled.
   */
  switchCurrentNow(fromKid: string, toKid: string, now: Date): Promise<boolean>;
  /** Sets when a key leaves the JWKS. */
  retire(kid: string, at: Date): Promise<void>;
  /** Every key but `kid` that would still verify after `at` leaves the JWKS at `at`; returns their kids. */
  retireAllExcept(kid: string, at: Date): Promise<string[]>;
  find(kid: string): Promise<StoredSigningKey | undefined>;
  /** Keys that still verify at `now` (not retired yet). */
  listVerifying(now: Date): Promise<StoredSigningKey[]>;
  /** Every stored key, retired or not, with its sealed private half (re-sealing at start). */
  listSealed(): Promise<Array<Pick<StoredSigningKey, 'kid' | 'sealedPrivateJwk'>>>;
  /**
   * Replaces a key's sealed private half, only while it is still `expected`; true when this call
   * wrote. The new value must seal the same private key (a re-sealing), which is what makes a
   * lost race harmless: see the note in the implementation.
   */
  replaceSealed(kid: string, expected: string, next: string): Promise<boolean>;
  remove(kid: string): Promise<void>;
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
