/**
 * What the usage page calls each key: written for people, not the raw keys humanised ("Max
 * active products"). A key missing here (a new one the API adds) falls back to its words.
 */
export const USAGE_LABELS: Readonly<Record<string, string>> = {
  MAX_ACTIVE_PRODUCTS: 'Active products',
  MAX_CONNECTIONS: 'Connections',
  MAX_USERS: 'Users',
  MAX_TRACED_PRODUCTS: 'Products under traceability',
  BULK_UPLOAD_ROWS_MONTH: 'Bulk upload rows this month',
  API_REQUESTS_DAY: 'API requests today',
  API_REQUESTS_MINUTE: 'API requests this minute',
};

/** What a 30-day chart of the key shows, per day. */
export const HISTORY_LABELS: Readonly<Record<string, string>> = {
  MAX_ACTIVE_PRODUCTS: 'Active products',
  MAX_CONNECTIONS: 'Connections',
  MAX_USERS: 'Users',
  MAX_TRACED_PRODUCTS: 'Products under traceability',
  BULK_UPLOAD_ROWS_MONTH: 'Bulk upload rows, month to date',
  API_REQUESTS_DAY: 'API requests per day',
};

/** The keys with a history, in the order the page shows their charts. */
export const HISTORY_KEYS = Object.keys(HISTORY_LABELS);

/** A key's label, or its words when the map does not know it. */
export function labelOf(key: string, labels: Readonly<Record<string, string>> = USAGE_LABELS): string {
  const known = labels[key];
  if (known) return known;
  const lower = key.toLowerCase().replace(/_/g, ' ');
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}
