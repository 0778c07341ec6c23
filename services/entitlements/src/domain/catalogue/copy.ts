import type { CapabilityKey, LimitKey, RateLimitKey } from './keys.js';

/** Words for a capability: its display label and the one-line benefit an upgrade prompt shows. */
export interface CapabilityCopy {
  readonly label: string;
  readonly highlight: string;
}

/** Words for a limit or rate limit: a display label and the plural noun used in sentences. */
export interface LimitCopy {
  readonly label: string;
  readonly noun: string;
}

/** User-facing words for each capability; kept apart from the numbers so copy can change alone. */
export const CAPABILITY_COPY: Readonly<Record<CapabilityKey, CapabilityCopy>> = Object.freeze({
  API_ACCESS: {
    label: 'API access',
    highlight: 'Connect your own systems through the API with OAuth client credentials',
  },
  BULK_UPLOAD: { label: 'Bulk upload', highlight: 'Import products in bulk from spreadsheets' },
  TRACEABILITY: { label: 'Traceability', highlight: 'Trace your products through their supply chain' },
  DIGITAL_PRODUCT_PASSPORTS: {
    label: 'Digital Product Passports',
    highlight: 'Publish Digital Product Passports for your products',
  },
  EXPECTED_DATA_SETS: {
    label: 'Expected data sets',
    highlight: 'See which data sets your partners expect and how complete yours are',
  },
  SUPPLIER_CASCADE: {
    label: 'Supplier cascade',
    highlight: "Cascade data requests to your suppliers' suppliers",
  },
  NETWORK_ANALYTICS: {
    label: 'Network analytics',
    highlight: 'Analyse coverage and data quality across your whole supplier network',
  },
});

/** User-facing words for each resource limit and rate limit. */
export const LIMIT_COPY: Readonly<Record<LimitKey | RateLimitKey, LimitCopy>> = Object.freeze({
  MAX_ACTIVE_PRODUCTS: { label: 'Active products', noun: 'active products' },
  MAX_CONNECTIONS: { label: 'Connections', noun: 'connections' },
  MAX_USERS: { label: 'Users', noun: 'users' },
  MAX_TRACED_PRODUCTS: { label: 'Products under traceability', noun: 'products under traceability' },
  BULK_UPLOAD_ROWS_MONTH: { label: 'Bulk upload rows per month', noun: 'bulk upload rows per month' },
  API_REQUESTS_DAY: { label: 'API requests per day', noun: 'API requests per day' },
  API_REQUESTS_MINUTE: { label: 'API requests per minute', noun: 'API requests per minute' },
});

/** A count as users read it: "10,000". */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}
