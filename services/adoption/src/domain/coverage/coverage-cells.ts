import type { CapabilityKey } from '../catalogue/capabilities.js';
import { capabilitySet } from '../catalogue/capabilities.js';
import type { EventKind } from '../catalogue/event-kinds.js';
import { connectionOf, partnerIndex } from '../facts/connections.js';
import type { FactLog } from '../facts/fact-log.js';
import { buildFactLog, factsOfType } from '../facts/fact-log.js';
import type { EventFact } from '../facts/facts.js';

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

interface CellRule {
  readonly key: string;
  readonly label: string;
  readonly capability: CapabilityKey | null;
  readonly items: (log: FactLog) => ReadonlySet<string>;
  readonly viewed: (log: FactLog, items: ReadonlySet<string>) => number;
}

/** Distinct values of a subject ref over facts of some kinds (the fact id when the ref is missing). */
function distinct(log: FactLog, kinds: readonly EventKind[], ref: string): Set<string> {
  const values = new Set<string>();
  for (const kind of kinds)
    for (const fact of factsOfType(log, kind)) values.add(fact.subject[ref] ?? fact.id);
  return values;
}

/** Items that are created by one kind and withdrawn by another, replayed in time order. */
function live(log: FactLog, added: EventKind, removed: EventKind, ref: string): Set<string> {
  const items = new Set<string>();
  for (const fact of log.facts) {
    const id = fact.subject[ref];
    if (fact.type === added) items.add(id ?? fact.id);
    else if (fact.type === removed && id !== undefined) items.delete(id);
  }
  return items;
}

function viewedAmong(kind: EventKind, ref: string): CellRule['viewed'] {
  return (log, items) => [...distinct(log, [kind], ref)].filter((id) => items.has(id)).length;
}

/** Live connections whose partner viewed at least one of the tenant's products. */
const connectionsThatViewed: CellRule['viewed'] = (log, items) => {
  const partners = partnerIndex(log);
  const viewers = new Set(factsOfType(log, 'product.viewed').map((f) => connectionOf(f, partners)));
  return [...items].filter((id) => viewers.has(id)).length;
};

const none: CellRule['viewed'] = () => 0;

// prettier-ignore
const CELLS: readonly CellRule[] = [
  { key: 'PRODUCTS', label: 'Products', capability: null, items: (log) => live(log, 'product.created', 'product.archived', 'productId'), viewed: viewedAmong('product.viewed', 'productId') },
  { key: 'CONNECTIONS', label: 'Partner connections', capability: null, items: (log) => live(log, 'connection.accepted', 'connection.removed', 'connectionId'), viewed: connectionsThatViewed },
  { key: 'DATA_REQUESTS', label: 'Data requests', capability: null, items: (log) => distinct(log, ['data_request.sent', 'data_request.answered'], 'requestId'), viewed: none },
  { key: 'POLICIES', label: 'Data-sharing policies', capability: null, items: (log) => distinct(log, ['policy.published'], 'policyId'), viewed: viewedAmong('policy.viewed', 'policyId') },
  { key: 'BULK_IMPORTS', label: 'Bulk imports', capability: 'BULK_UPLOAD', items: (log) => distinct(log, ['import.completed'], 'importId'), viewed: none },
  { key: 'INTEGRATIONS', label: 'API integrations', capability: 'API_ACCESS', items: (log) => distinct(log, ['integration.succeeded'], 'integrationId'), viewed: none },
  { key: 'TRACEABILITY', label: 'Traced products', capability: 'TRACEABILITY', items: (log) => distinct(log, ['trace.recorded'], 'productId'), viewed: viewedAmong('product.viewed', 'productId') },
  { key: 'PASSPORTS', label: 'Digital Product Passports', capability: 'DIGITAL_PRODUCT_PASSPORTS', items: (log) => distinct(log, ['passport.published'], 'productId'), viewed: viewedAmong('product.viewed', 'productId') },
  { key: 'EXPECTED_DATA_SETS', label: 'Expected data sets', capability: 'EXPECTED_DATA_SETS', items: (log) => distinct(log, ['data_set.expected'], 'dataSetId'), viewed: none },
  { key: 'CASCADES', label: 'Supplier cascades', capability: 'SUPPLIER_CASCADE', items: (log) => distinct(log, ['cascade.started'], 'cascadeId'), viewed: none },
];

/** Keys of the coverage cells, in display order. */
export const COVERAGE_CELL_KEYS: readonly string[] = CELLS.map((c) => c.key);

/** What the coverage grid reads. */
export interface CoverageInput {
  readonly facts: readonly EventFact[];
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
    const items = cell.items(log);
    return {
      key: cell.key,
      label: cell.label,
      capable: cell.capability === null || capabilities.has(cell.capability),
      achieved: items.size > 0,
      count: items.size,
      viewedCount: cell.viewed(log, items),
    };
  });
}
