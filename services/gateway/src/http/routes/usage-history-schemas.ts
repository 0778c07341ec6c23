import { Type, type Static } from '@sinclair/typebox';
import { LIMIT_KEYS } from '@tap/contracts';
import { Envelope, EnumText, Nullable, OneOf } from '../typebox.js';

/*
 * `GET /entitlements/usage/history` (docs/api.md, "Usage history"). The schema checks the shape
 * of every parameter; entitlements checks what a pattern cannot (a real calendar day, from ≤ to,
 * nothing after today, nothing before the 13 months kept) and its INVALID_HISTORY_QUERY is
 * answered as the same 400 VALIDATION_FAILED (errors/map-error.ts).
 */

/** The keys with a history: the five resource limits and the API requests of a UTC day. */
export const HISTORY_KEYS = [...LIMIT_KEYS, 'API_REQUESTS_DAY'] as const;

const GRANULARITIES = ['day', 'month'] as const;

const HistoryDate = (description: string) =>
  Type.String({
    pattern: '^[0-9]{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12][0-9]|3[01]))?$',
    minLength: 7,
    maxLength: 10,
    description,
  });

export const UsageHistoryQuery = Type.Object(
  {
    key: OneOf(HISTORY_KEYS, { description: 'A resource-limit key, or API_REQUESTS_DAY' }),
    from: Type.Optional(
      HistoryDate(
        'First day (YYYY-MM-DD), or a month (YYYY-MM) from its first day; default 29 days (12 months) before `to`',
      ),
    ),
    to: Type.Optional(
      HistoryDate(
        'Last day (YYYY-MM-DD), or a month (YYYY-MM) to its last day; default today (UTC), never later',
      ),
    ),
    granularity: Type.Optional(
      OneOf(GRANULARITIES, { description: 'One point per UTC day (default) or month' }),
    ),
    format: Type.Optional(
      OneOf(['json', 'csv'] as const, {
        description: 'csv: the points as text/csv (so does Accept: text/csv)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type UsageHistoryQuery = Static<typeof UsageHistoryQuery>;

const UsageHistory = Type.Object({
  key: EnumText(HISTORY_KEYS),
  granularity: EnumText(GRANULARITIES),
  from: Type.String({ description: 'The first day covered (YYYY-MM-DD)' }),
  to: Type.String({ description: 'The last day covered (YYYY-MM-DD)' }),
  limit: Nullable(Type.Integer({ description: "The tier's ceiling now; null when unlimited" })),
  unlimited: Type.Boolean(),
  points: Type.Array(
    Type.Object({
      date: Type.String({ description: 'YYYY-MM-DD, or YYYY-MM for month points' }),
      value: Type.Integer({ minimum: 0 }),
    }),
  ),
});
export type UsageHistoryJson = Static<typeof UsageHistory>;

/** JSON in the envelope, or CSV (`date,value` rows after a header) when asked for. */
export const usageHistoryResponse = {
  200: {
    description: "The key's points, oldest first; the last is the usage report's number when `to` is today",
    content: {
      'application/json': { schema: Envelope(UsageHistory) },
      'text/csv': { schema: Type.String({ description: 'key,date,value,limit rows after a header row' }) },
    },
  },
};
