import { envelopeSchema } from '../envelope.js';

/*
 * Response schemas of the adoption endpoints: the spec's resource shapes, so Fastify serialises
 * exactly these fields (nullable where the spec says "or null").
 */

const STRING = { type: 'string' };
const NULLABLE_STRING = { type: ['string', 'null'] };
const TIER_REF = { type: 'object', required: ['code', 'name'], properties: { code: STRING, name: STRING } };

const upgradeContext = {
  type: 'object',
  required: [
    'capability',
    'frictionType',
    'upgradeAvailable',
    'currentTier',
    'headline',
    'featureHighlights',
    'cta',
  ],
  properties: {
    capability: STRING,
    frictionType: STRING,
    upgradeAvailable: { type: 'boolean' },
    currentTier: TIER_REF,
    targetTier: TIER_REF,
    headline: STRING,
    featureHighlights: { type: 'array', items: STRING },
    cta: STRING,
  },
};
const nullableUpgradeContext = { anyOf: [{ type: 'null' }, upgradeContext] };

const milestoneProperties = {
  key: STRING,
  chapter: { type: 'integer' },
  internalStage: STRING,
  status: STRING,
  completionMode: STRING,
  triggerEvent: STRING,
  dependsOn: { type: 'array', items: STRING },
  displayOrder: { type: 'integer' },
  requiredCapability: NULLABLE_STRING,
  paidTeaser: { type: 'boolean' },
  lockedReasons: {
    type: 'array',
    items: { type: 'object', required: ['unmetDependencyKey'], properties: { unmetDependencyKey: STRING } },
  },
  completedAt: NULLABLE_STRING,
  upgradeContext: nullableUpgradeContext,
};
const milestone = {
  type: 'object',
  required: Object.keys(milestoneProperties),
  properties: milestoneProperties,
};
const rankedMilestone = {
  type: 'object',
  required: [...Object.keys(milestoneProperties), 'unlocks', 'becauseOf'],
  properties: { ...milestoneProperties, unlocks: { type: 'integer' }, becauseOf: STRING },
};

const stateProperties = {
  companyId: STRING,
  currentMaturityRung: STRING,
  pathProfile: STRING,
  healthScore: { type: ['integer', 'null'] },
  healthBand: STRING,
  networkDensity: { type: 'integer' },
  lastRecomputedAt: STRING,
  version: { type: 'integer' },
  milestones: { type: 'array', items: milestone },
};
export const stateResponse = {
  200: envelopeSchema({
    type: 'object',
    required: Object.keys(stateProperties),
    properties: stateProperties,
  }),
};

export const nextBestActionResponse = {
  200: envelopeSchema({
    type: 'object',
    required: [
      'companyId',
      'currentMaturityRung',
      'nextBestAction',
      'available',
      'locked',
      'nextUpgradePrompt',
    ],
    properties: {
      companyId: STRING,
      currentMaturityRung: STRING,
      nextBestAction: { anyOf: [{ type: 'null' }, rankedMilestone] },
      available: { type: 'array', items: milestone },
      locked: { type: 'array', items: milestone },
      nextUpgradePrompt: nullableUpgradeContext,
    },
  }),
};

const coverageCellProperties = {
  key: STRING,
  label: STRING,
  capable: { type: 'boolean' },
  achieved: { type: 'boolean' },
  count: { type: 'integer' },
  viewedCount: { type: 'integer' },
};
export const coverageResponse = {
  200: envelopeSchema({
    type: 'object',
    required: ['cells'],
    properties: {
      cells: {
        type: 'array',
        items: {
          type: 'object',
          required: Object.keys(coverageCellProperties),
          properties: coverageCellProperties,
        },
      },
    },
  }),
};

const signalProperties = {
  id: STRING,
  kind: STRING,
  severity: STRING,
  resolution: STRING,
  escalatedToHuman: { type: 'boolean' },
  subjectRef: { type: 'object', additionalProperties: STRING },
  detectedAt: STRING,
  resolvedAt: NULLABLE_STRING,
};
export const riskSignalsResponse = {
  200: envelopeSchema({
    type: 'object',
    required: ['signals'],
    properties: {
      signals: {
        type: 'array',
        items: { type: 'object', required: Object.keys(signalProperties), properties: signalProperties },
      },
    },
  }),
};

const planProperties = {
  id: STRING,
  title: STRING,
  targetDate: STRING,
  status: STRING,
  renewedFromId: NULLABLE_STRING,
  objectives: {
    type: 'array',
    items: {
      type: 'object',
      required: ['label', 'milestoneKeys', 'met'],
      properties: {
        label: STRING,
        milestoneKeys: { type: 'array', items: STRING },
        met: { type: 'boolean' },
      },
    },
  },
  createdAt: STRING,
  updatedAt: STRING,
};
const plan = { type: 'object', required: Object.keys(planProperties), properties: planProperties };
export const getPlanResponse = { 200: envelopeSchema({ anyOf: [{ type: 'null' }, plan] }) };
export const createPlanResponse = { 201: envelopeSchema(plan) };

const componentProperties = {
  code: STRING,
  present: { type: 'boolean' },
  value: { type: ['integer', 'null'] },
  weight: { type: 'number' },
  effectiveWeight: { type: 'number' },
  points: { type: 'number' },
  eventIds: { type: 'array', items: STRING },
  reason: STRING,
};
const explanationProperties = {
  companyId: STRING,
  catalogueVersion: { type: 'integer' },
  healthModelVersion: { type: 'integer' },
  asOf: STRING,
  healthScore: { type: ['integer', 'null'] },
  healthBand: STRING,
  bandReason: STRING,
  maturityRung: STRING,
  rungReason: STRING,
  networkDensity: { type: 'integer' },
  components: {
    type: 'array',
    items: { type: 'object', required: Object.keys(componentProperties), properties: componentProperties },
  },
  summary: STRING,
};
export const healthExplanationResponse = {
  200: envelopeSchema({
    type: 'object',
    required: Object.keys(explanationProperties),
    properties: explanationProperties,
  }),
};
