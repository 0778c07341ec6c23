import { Type } from '@sinclair/typebox';
import {
  CAPABILITY_KEYS,
  COMPLETION_MODES,
  HEALTH_BANDS,
  INTERNAL_STAGES,
  MATURITY_RUNGS,
  MILESTONE_STATUSES,
  PATH_PROFILES,
  PLAN_STATUSES,
  RISK_KINDS,
  RISK_RESOLUTIONS,
  RISK_SEVERITIES,
} from '@tap/contracts';
import { Envelope, EnumText, MapOf, Nullable } from '../typebox.js';
import { UpgradeContext } from './upgrade-context-schema.js';

/*
 * Response schemas of the adoption endpoints, in TypeBox: the spec's resource shapes, so Fastify
 * serialises exactly these fields (nullable where the spec says "or null"), the document shows
 * them and the handlers' answers are type-checked against them.
 */

// `type: ['object', 'null']`, not a union: fast-json-stringify serialises a union by running a
// validator on every value to pick its branch (24 milestones per state read); a type list is a
// `null` check.
const NullableUpgradeContext = Nullable(UpgradeContext);

const milestoneProperties = {
  key: Type.String(),
  chapter: Type.Integer(),
  internalStage: EnumText(INTERNAL_STAGES),
  status: EnumText(MILESTONE_STATUSES),
  completionMode: EnumText(COMPLETION_MODES),
  triggerEvent: Type.String(),
  dependsOn: Type.Array(Type.String()),
  displayOrder: Type.Integer(),
  requiredCapability: Nullable(EnumText(CAPABILITY_KEYS)),
  paidTeaser: Type.Boolean(),
  lockedReasons: Type.Array(Type.Object({ unmetDependencyKey: Type.String() })),
  completedAt: Nullable(Type.String()),
  upgradeContext: NullableUpgradeContext,
};
const Milestone = Type.Object(milestoneProperties);
const RankedMilestone = Type.Object({
  ...milestoneProperties,
  unlocks: Type.Integer(),
  becauseOf: Type.String(),
});

export const stateResponse = {
  200: Envelope(
    Type.Object({
      companyId: Type.String(),
      currentMaturityRung: EnumText(MATURITY_RUNGS),
      pathProfile: EnumText(PATH_PROFILES),
      healthScore: Nullable(Type.Integer()),
      healthBand: EnumText(HEALTH_BANDS),
      networkDensity: Type.Integer(),
      lastRecomputedAt: Type.String(),
      version: Type.Integer(),
      milestones: Type.Array(Milestone),
    }),
  ),
};

export const nextBestActionResponse = {
  200: Envelope(
    Type.Object({
      companyId: Type.String(),
      currentMaturityRung: EnumText(MATURITY_RUNGS),
      nextBestAction: Nullable(RankedMilestone),
      available: Type.Array(Milestone),
      locked: Type.Array(Milestone),
      nextUpgradePrompt: NullableUpgradeContext,
    }),
  ),
};

const CoverageCell = Type.Object({
  key: Type.String(),
  label: Type.String(),
  capable: Type.Boolean(),
  achieved: Type.Boolean(),
  count: Type.Integer(),
  viewedCount: Type.Integer(),
});
export const coverageResponse = { 200: Envelope(Type.Object({ cells: Type.Array(CoverageCell) })) };

const RiskSignal = Type.Object({
  id: Type.String(),
  kind: EnumText(RISK_KINDS),
  severity: EnumText(RISK_SEVERITIES),
  resolution: EnumText(RISK_RESOLUTIONS),
  escalatedToHuman: Type.Boolean(),
  subjectRef: MapOf(Type.String()),
  detectedAt: Type.String(),
  resolvedAt: Nullable(Type.String()),
});
export const riskSignalsResponse = { 200: Envelope(Type.Object({ signals: Type.Array(RiskSignal) })) };

const Plan = Type.Object({
  id: Type.String(),
  title: Type.String(),
  targetDate: Type.String(),
  status: EnumText(PLAN_STATUSES),
  renewedFromId: Nullable(Type.String()),
  objectives: Type.Array(
    Type.Object({ label: Type.String(), milestoneKeys: Type.Array(Type.String()), met: Type.Boolean() }),
  ),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export const getPlanResponse = { 200: Envelope(Nullable(Plan)) };
export const createPlanResponse = { 201: Envelope(Plan) };

const HealthComponent = Type.Object({
  code: Type.String(),
  present: Type.Boolean(),
  value: Nullable(Type.Integer()),
  weight: Type.Number(),
  effectiveWeight: Type.Number(),
  points: Type.Number(),
  eventIds: Type.Array(Type.String()),
  reason: Type.String(),
});
export const healthExplanationResponse = {
  200: Envelope(
    Type.Object({
      companyId: Type.String(),
      catalogueVersion: Type.Integer(),
      healthModelVersion: Type.Integer(),
      asOf: Type.String(),
      healthScore: Nullable(Type.Integer()),
      healthBand: EnumText(HEALTH_BANDS),
      bandReason: Type.String(),
      maturityRung: EnumText(MATURITY_RUNGS),
      rungReason: Type.String(),
      networkDensity: Type.Integer(),
      components: Type.Array(HealthComponent),
      summary: Type.String(),
    }),
  ),
};
