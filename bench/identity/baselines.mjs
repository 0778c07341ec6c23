import { createHmac, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/**
 * Baselines for the database, measured in the same run from this process: what the
 * MongoDB-wire server answers at all, at the same concurrency, for the one read a grant needs
 * (an OAuth client by `_id`, in the same collection) and for the write a refresh makes (the
 * rotation's conditional `findOneAndUpdate`, same filter, same update, on session-shaped
 * documents, one per caller).
 * @param {import('mongodb').Db} db
 * @param {Array<{ clientId: string }>} clients
 * @param {number} callers one document per caller
 */
export async function databaseCases(db, clients, callers) {
  const scratch = db.collection('bench_rotations');
  const ids = Array.from({ length: callers }, (_, i) => `s${i}`);
  const hash = (n) => String(n).padStart(43, 'h');
  const far = new Date(Date.now() + 7 * 86_400_000);
  await scratch.insertMany(
    ids.map((id) => ({
      _id: /** @type {any} */ (id),
      tenantId: clients[0]?.clientId ?? '',
      userId: clients[1]?.clientId ?? '',
      channel: 'bearer',
      createdAt: new Date(),
      currentHash: hash(0),
      currentExpiresAt: far,
      previousHash: null,
      rotatedAt: null,
      graceUses: 0,
      revokedAt: null,
      revokedReason: null,
    })),
  );
  const generation = ids.map(() => 0);
  let next = 0;
  return [
    {
      name: 'db: read client by _id',
      call: async () =>
        (await db
          .collection('oauth_clients')
          .findOne({ _id: /** @type {any} */ (clients[(next += 1) % clients.length]?.clientId) }))
          ? 200
          : 404,
    },
    {
      name: 'db: a rotation alone',
      /** @param {number} worker */
      call: async (worker) => {
        const from = hash(generation[worker] ?? 0);
        const to = hash((generation[worker] = (generation[worker] ?? 0) + 1));
        const now = new Date();
        const updated = await scratch.findOneAndUpdate(
          {
            _id: /** @type {any} */ (ids[worker]),
            currentHash: from,
            revokedAt: null,
            currentExpiresAt: { $gt: now },
          },
          {
            $set: {
              currentHash: to,
              currentExpiresAt: far,
              previousHash: from,
              rotatedAt: now,
              graceUses: 0,
            },
          },
          { returnDocument: 'after' },
        );
        return updated ? 200 : 409;
      },
    },
  ];
}

/**
 * Why client secrets and refresh tokens are HMACs and passwords argon2id: one check of each,
 * per CPU-second of this process (CPU time, not wall time, so other work on the machine does
 * not move it; argon2 runs on libuv's threads, which process.cpuUsage counts too).
 */
export async function hashingCosts() {
  const key = randomBytes(32);
  const secret = randomBytes(32).toString('base64url');
  const perCpuSecond = async (count, work) => {
    const before = process.cpuUsage();
    for (let i = 0; i < count; i += 1) await work();
    const used = process.cpuUsage(before);
    return count / ((used.user + used.system) / 1e6);
  };
  const hmacPerSecond = await perCpuSecond(100_000, () =>
    createHmac('sha256', key).update(secret).digest('base64url'),
  );
  const options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };
  const encoded = await hash(secret, options);
  const argon2idPerSecond = await perCpuSecond(40, () => verify(encoded, secret));
  return { hmacPerSecond, argon2idPerSecond };
}
