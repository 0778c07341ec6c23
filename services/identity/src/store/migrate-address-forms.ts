import type { Db } from 'mongodb';
import { isDuplicateKey } from '@tap/errors';
import { normaliseDomain, normaliseEmailAddress } from '../domain/address.js';

/** What a start-up run of {@link migrateAddressForms} did. */
export interface AddressMigrationReport {
  /** Documents whose address or domain was rewritten to the normalised form. */
  readonly rewritten: number;
  /**
   * Documents left as they were: their normalised form belongs to another document (two users
   * who were one address all along), or they cannot be normalised (a confusable spelling).
   * Never matched by a lookup (lookups use the normalised form); for an operator to resolve.
   */
  readonly leftAsTheyWere: readonly {
    readonly collection: string;
    readonly id: string;
    readonly why: string;
  }[];
}

/**
 * Only addresses with a character outside ASCII can differ from their normalised form: every
 * address ever stored was already trimmed and lower-cased, which is all NFKC and IDNA do to
 * ASCII. So each run reads only those (a regular expression the server evaluates), and a second
 * run finds nothing left to do but the few it must leave as they were.
 */
const NON_ASCII = '[^\\x00-\\x7F]';

interface Moved {
  rewritten: number;
  left: { collection: string; id: string; why: string }[];
}

/**
 * Brings stored e-mail addresses and join domains to the one normalised form (NFKC, lower case,
 * IDNA domain; docs/identity.md, "E-mail addresses and domains"), at start-up, before identity
 * serves. Idempotent and safe on several replicas at once: each write is one single-document
 * update conditioned on the old value; a join domain moves by inserting the new key (if absent)
 * and then deleting the old one. Users, join requests and join domains; magic links live 15
 * minutes and their redeem normalises the address again.
 */
export async function migrateAddressForms(db: Db): Promise<AddressMigrationReport> {
  const moved: Moved = { rewritten: 0, left: [] };
  for (const collection of ['users', 'join_requests']) await moveEmails(db, collection, moved);
  await moveJoinDomains(db, moved);
  return { rewritten: moved.rewritten, leftAsTheyWere: moved.left };
}

async function moveEmails(db: Db, name: string, moved: Moved): Promise<void> {
  const collection = db.collection<{ _id: string; email: string }>(name);
  const candidates = await collection
    .find({ email: { $regex: NON_ASCII } }, { projection: { email: 1 } })
    .toArray();
  for (const { _id, email } of candidates) {
    const normalised = normaliseEmailAddress(email);
    if (normalised === email) continue;
    if (normalised === undefined) {
      moved.left.push({ collection: name, id: _id, why: 'not normalisable (confusable or invalid)' });
      continue;
    }
    // Asked first as well as caught: FerretDB answers a unique-index violation on an update with
    // a code of its own rather than 11000, and users must never be merged by a migration.
    const taken = name === 'users' && (await collection.findOne({ email: normalised, _id: { $ne: _id } }));
    if (taken) {
      moved.left.push({ collection: name, id: _id, why: 'its normalised address belongs to another user' });
      continue;
    }
    try {
      const result = await collection.updateOne({ _id, email }, { $set: { email: normalised } });
      moved.rewritten += result.modifiedCount;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      moved.left.push({ collection: name, id: _id, why: 'its normalised address belongs to another user' });
    }
  }
}

async function moveJoinDomains(db: Db, moved: Moved): Promise<void> {
  const domains = db.collection<{ _id: string; tenantId: string }>('join_domains');
  const candidates = await domains.find({ _id: { $regex: NON_ASCII } }).toArray();
  for (const { _id, tenantId } of candidates) {
    const normalised = normaliseDomain(_id);
    if (normalised === _id) continue;
    if (normalised === undefined) {
      moved.left.push({
        collection: 'join_domains',
        id: _id,
        why: 'not normalisable (confusable or invalid)',
      });
      continue;
    }
    await domains.updateOne({ _id: normalised }, { $setOnInsert: { tenantId } }, { upsert: true });
    const holder = await domains.findOne({ _id: normalised });
    if (holder?.tenantId !== tenantId) {
      moved.left.push({
        collection: 'join_domains',
        id: _id,
        why: 'its normalised domain is claimed by another tenant',
      });
      continue;
    }
    moved.rewritten += (await domains.deleteOne({ _id, tenantId })).deletedCount;
  }
}
