import type { Collection, Db } from 'mongodb';
import { HISTORY_KEYS, type HistoryKey, type HistoryMonth } from '../domain/index.js';
import type { UsageHistoryRepository } from '../operations/ports/usage-history-repository.js';

type Values = Partial<Record<HistoryKey, number>>;

/** `usage_history` / `api_request_days`: `_id` = `<tenantId>:<YYYY-MM>`. */
interface HistoryMonthDocument {
  _id: string;
  tenantId: string;
  month: string;
  opening?: Values;
  days: Record<string, Values>;
}

const MONTH = /^\d{4}-\d{2}$/;
const DAY = /^(\d{4}-\d{2})-(\d{2})$/;

/**
 * The usage history over `db`. Limit points (written by the usage writers, under the tenant's
 * write lock) and API request counts (written by the API request job) live in two collections,
 * so their two writers never update one document at once (FerretDB v1 would lose one of them).
 */
export function usageHistoryRepository(db: Db): UsageHistoryRepository {
  const limits: Collection<HistoryMonthDocument> = db.collection('usage_history');
  const api: Collection<HistoryMonthDocument> = db.collection('api_request_days');
  const idOf = (tenantId: string, month: string) => `${tenantId}:${month}`;
  return {
    async record(tenantId, writes) {
      for (const write of writes) {
        if (!MONTH.test(write.month) || !/^\d{2}$/.test(write.day)) continue;
        const set: Record<string, unknown> = { tenantId, month: write.month };
        for (const [key, value] of Object.entries(write.values)) set[`days.${write.day}.${key}`] = value;
        const opening =
          Object.keys(write.opening).length > 0 ? { $setOnInsert: { opening: write.opening } } : {};
        await limits.updateOne(
          { _id: idOf(tenantId, write.month) },
          { $set: set, ...opening },
          { upsert: true },
        );
      }
    },
    async recordApiRequests(tenantId, day, count) {
      const match = DAY.exec(day);
      if (!match?.[1] || !match[2]) throw new TypeError(`not a day: ${day}`);
      await api.updateOne(
        { _id: idOf(tenantId, match[1]) },
        { $set: { tenantId, month: match[1], [`days.${match[2]}.API_REQUESTS_DAY`]: count } },
        { upsert: true },
      );
    },
    async months(tenantId, key, months) {
      const collection = key === 'API_REQUESTS_DAY' ? api : limits;
      // One lookup by `_id` each: on FerretDB v1 an `$in` or range over `_id` scans the collection.
      const docs = await Promise.all(
        months.map((month) => collection.findOne({ _id: idOf(tenantId, month) })),
      );
      return docs.flatMap((doc) => (doc && doc.tenantId === tenantId ? [toMonth(doc)] : []));
    },
    async dropBefore(month) {
      const [a, b] = await Promise.all([
        limits.deleteMany({ month: { $lt: month } }),
        api.deleteMany({ month: { $lt: month } }),
      ]);
      return a.deletedCount + b.deletedCount;
    },
  };
}

/** Only the known keys and whole numbers survive the read (a document is data, not trusted code). */
function toMonth(doc: HistoryMonthDocument): HistoryMonth {
  const clean = (values: Values | undefined): Values => {
    const out: Values = {};
    for (const key of HISTORY_KEYS) {
      const value = values?.[key];
      if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) out[key] = value;
    }
    return out;
  };
  const days: Record<string, Values> = {};
  for (const [day, values] of Object.entries(doc.days ?? {})) days[day] = clean(values);
  return { month: doc.month, ...(doc.opening ? { opening: clean(doc.opening) } : {}), days };
}
