import type { CapabilityKey } from '../catalogue/capabilities.js';
import { capabilitySet } from '../catalogue/capabilities.js';
import { connectionOf, partnerIndex } from '../facts/connections.js';
import type { FactLog } from '../facts/fact-log.js';
import { buildFactLog, factsOfType } from '../facts/fact-log.js';
import type { EventFact } from '../facts/facts.js';
import { itemCount, type ItemCounts } from '../items/distinct-items.js';

/** One activity of the coverage grid (the spec's Coverage cell). */
export interface CoverageCell {
  readonly key: string;
  readonly label: string;
  /** The tier grants the activity (always true for activities no capability gates). */
  readonly capable: boolean;
  /** `count` > 0: the tenant has done it at least once (possibly before a downgrade). */
  readonly achieved: boolean;
  /** Distinct items of the activity (live ones where they can be archived or removed). */
  readonly count: number;
  /** Of those items, how many a partner has opened; 0 where the platform emits no view event. */
  readonly viewedCount: number;
}

/** A cell's size and how much of it partners opened. */
interface CellCount {
  readonly count: number;
  readonly viewedCount: number;
}

interface CellRule {
  readonly key: string;
  readonly label: string;
  readonly capability: CapabilityKey | null;
  readonly measure: (log: FactLog, items: ItemCounts) => CellCount;
}

/** Connections accepted and not removed since, replayed in time order (bounded by the tenant's partners). */
function liveConnections(log: FactLog): Set<string> {
  const items = new Set<string>();
  for (const fact of log.facts) {
    const id = fact.subject['connectionId'];
    if (fact.type === 'connection.accepted') items.add(id ?? fact.id);
    else if (fact.type === 'connection.removed' && id !== undefined) items.delete(id);
  }
  return items;
}

/** Live connections, and those whose partner viewed at least one of the tenant's products. */
function connections(log: FactLog): CellCount {
  const items = liveConnections(log);
  const partners = partnerIndex(log);
  const viewers = new Set(factsOfType(log, 'product.viewed').map((f) => connectionOf(f, partners)));
  return { count: items.size, viewedCount: [...items].filter((id) => viewers.has(id)).length };
}

/** A cell counted by item markers: its space, and the pair of it with a view (if the platform emits one). */
function counted(space: string, viewedPair?: string): CellRule['measure'] {
  return (_log, items) => {
    const count = itemCount(items, space);
    const viewed = viewedPair === undefined ? 0 : itemCount(items, viewedPair);
    return { count, viewedCount: Math.min(count, viewed) };
  };
}

/** Products created and not archived; of those, the ones a partner viewed. */
const products: CellRule['measure'] = (_log, items) => {
  const count = Math.max(0, itemCount(items, 'product') - itemCount(items, 'archived+product'));
  const viewed = itemCount(items, 'viewed+product') - itemCount(items, 'viewed+archived');
  return { count, viewedCount: Math.min(count, Math.max(0, viewed)) };
};

// prettier-ignore
const CELLS: readonly CellRule[] = [
  { key: 'PRODUCTS', label: 'Products', capability: null, measure: products },
  { key: 'CONNECTIONS', label: 'Partner connections', capability: null, measure: connections },
  { key: 'DATA_REQUESTS', label: 'Data requests', capability: null, measure: counted('request') },
  { key: 'POLICIES', label: 'Data-sharing policies', capability: null, measure: counted('policy', 'policy_viewed+policy') },
  { key: 'BULK_IMPORTS', label: 'Bulk imports', capability: 'BULK_UPLOAD', measure: counted('import') },
  { key: 'INTEGRATIONS', label: 'API integrations', capability: 'API_ACCESS', measure: counted('integration') },
  { key: 'TRACEABILITY', label: 'Traced products', capability: 'TRACEABILITY', measure: counted('traced', 'viewed+traced') },
  { key: 'PASSPORTS', label: 'Digital Product Passports', capability: 'DIGITAL_PRODUCT_PASSPORTS', measure: counted('passport', 'viewed+passport') },
  { key: 'EXPECTED_DATA_SETS', label: 'Expected data sets', capability: 'EXPECTED_DATA_SETS', measure: counted('data_set') },
  { key: 'CASCADES', label: 'Supplier cascades', capability: 'SUPPLIER_CASCADE', measure: counted('cascade') },
];

/** Keys of the coverage cells, in display order. */
export const COVERAGE_CELL_KEYS: readonly string[] = CELLS.map((c) => c.key);

/** What the coverage grid reads. */
export interface CoverageInput {
  /** The facts the summary keeps (connections are read from them). */
  readonly facts: readonly EventFact[];
  /** The tenant's distinct-item counters (domain/items): every other cell's size. */
  readonly items: ItemCounts;
  readonly capabilities: readonly string[];
}

/**
 * The coverage grid: for each activity, whether the tier allows it, whether and how much the
 * tenant has done it, and how much of it partners have looked at. Same cells for both profiles
 * (capability, not profile, decides what is open).
 */
export function coverageCells(input: CoverageInput): readonly CoverageCell[] {
  const log = buildFactLog(input.facts);
  const capabilities = capabilitySet(input.capabilities);
  return CELLS.map((cell) => {
    const { count, viewedCount } = cell.measure(log, input.items);
    return {
      key: cell.key,
      label: cell.label,
      capable: cell.capability === null || capabilities.has(cell.capability),
      achieved: count > 0,
      count,
      viewedCount,
    };
  });
}
