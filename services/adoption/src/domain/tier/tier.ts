import { isCapabilityKey, type CapabilityKey } from '../catalogue/capabilities.js';
import { PATH_PROFILES, type PathProfile } from '../catalogue/milestone-definition.js';
import type { UpgradeContext, UpgradeContexts } from '../state/adoption-state.js';
import { parseInstant } from '../time.js';

/** The kind entitlements publishes a tenant's tier under (the tier's one owner). */
export const TIER_CHANGED_EVENT = 'tier.changed';

/** What adoption needs to know of the tenant's tier for a recompute. */
export interface TierView {
  readonly tierCode: string;
  readonly pathProfile: PathProfile;
  readonly capabilities: readonly string[];
}

/**
 * What the catalogue says of one tier at one catalogue version: a function of (tier, catalogue
 * version) only, so adoption keeps one per tier, never one per tenant.
 */
export interface TierEntry extends TierView {
  readonly tierName: string;
  readonly catalogueVersion: number;
  /** What to offer for each capability the tier lacks. */
  readonly upgradeContexts: UpgradeContexts;
}

/** A `tier.changed` as adoption applies it: the tier entry and when the tier was set. */
export interface TierChange {
  readonly entry: TierEntry;
  /** ISO instant the tier was set at entitlements (orders changes; a replay keeps the newest). */
  readonly changedAt: string;
}

/** The tier a tenant has before any `tier.changed` reached adoption: entitlements' default. */
export const DEFAULT_TIER_CODE = 'SUPPLIER_FREE';

/**
 * The tier assumed while not even the default tier's entry is known: the entry tier's profile
 * and no paid capability (what entitlements' default tier grants of the gating capabilities).
 */
export const UNSEEN_TIER: TierView = Object.freeze({
  tierCode: DEFAULT_TIER_CODE,
  pathProfile: 'SUPPLIER',
  capabilities: [],
});

const isString = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max;

function contextOf(capability: string, value: unknown): UpgradeContext | null {
  if (typeof value !== 'object' || value === null) return null;
  const c = value as Record<string, unknown>;
  const tierRef = (ref: unknown) => {
    if (typeof ref !== 'object' || ref === null) return null;
    const { code, name } = ref as { code?: unknown; name?: unknown };
    return isString(code, 64) ? { code, name: typeof name === 'string' ? name : '' } : null;
  };
  const currentTier = tierRef(c['currentTier']);
  const targetTier = tierRef(c['targetTier']);
  const frictionType = c['frictionType'];
  if (
    c['capability'] !== capability ||
    currentTier === null ||
    (frictionType !== 'CAPABILITY' && frictionType !== 'LIMIT' && frictionType !== 'RATE_LIMIT') ||
    typeof c['upgradeAvailable'] !== 'boolean' ||
    typeof c['headline'] !== 'string' ||
    typeof c['cta'] !== 'string' ||
    !Array.isArray(c['featureHighlights'])
  )
    return null;
  return {
    capability,
    frictionType,
    upgradeAvailable: c['upgradeAvailable'],
    currentTier,
    ...(c['upgradeAvailable'] && targetTier !== null ? { targetTier } : {}),
    headline: c['headline'],
    featureHighlights: c['featureHighlights'].filter((h): h is string => typeof h === 'string'),
    cta: c['cta'],
  };
}

/**
 * The tier change a `tier.changed` event carries, or null when its data is not one (the event is
 * then dead-lettered, never applied). Unknown capabilities are kept out of the offers.
 */
export function tierChangeOf(event: {
  readonly occurredAt: string;
  readonly data: Readonly<Record<string, unknown>>;
}): TierChange | null {
  const { data } = event;
  const { tierCode, tierName, pathProfile, capabilities, catalogueVersion, upgradeContexts } = data;
  if (parseInstant(event.occurredAt) === null) return null;
  if (!isString(tierCode, 64) || !isString(tierName, 128)) return null;
  if (!(PATH_PROFILES as readonly unknown[]).includes(pathProfile)) return null;
  if (!Array.isArray(capabilities) || !capabilities.every((c) => isString(c, 64))) return null;
  if (typeof catalogueVersion !== 'number' || !Number.isInteger(catalogueVersion) || catalogueVersion < 1)
    return null;
  if (typeof upgradeContexts !== 'object' || upgradeContexts === null) return null;
  const contexts: Partial<Record<CapabilityKey, UpgradeContext>> = {};
  for (const [capability, value] of Object.entries(upgradeContexts)) {
    const context = isCapabilityKey(capability) ? contextOf(capability, value) : null;
    if (context !== null && isCapabilityKey(capability)) contexts[capability] = context;
  }
  return {
    changedAt: event.occurredAt,
    entry: {
      tierCode,
      tierName,
      pathProfile: pathProfile as PathProfile,
      capabilities: [...capabilities],
      catalogueVersion,
      upgradeContexts: contexts,
    },
  };
}

/**
 * True when `change` is newer than the tier the tenant holds (set at `heldAt`, null: never
 * told): changes are applied newest-wins, so a replay or a late redelivery never goes back.
 */
export function isNewerTier(heldAt: string | null, change: TierChange): boolean {
  if (heldAt === null) return true;
  const held = parseInstant(heldAt);
  const changed = parseInstant(change.changedAt);
  return held === null || (changed !== null && changed > held);
}

/** True when two tier views would give the same recompute. */
export function sameTier(a: TierView | null, b: TierView): boolean {
  if (a === null) return false;
  return (
    a.tierCode === b.tierCode &&
    a.pathProfile === b.pathProfile &&
    a.capabilities.length === b.capabilities.length &&
    a.capabilities.every((c, i) => b.capabilities[i] === c)
  );
}
