import { envelopeSchema } from '../envelope.js';

/*
 * Request and response schemas of the entitlement endpoints. Keys stay strings with a length
 * bound rather than enums: an unknown action or capability is the entitlements service's
 * UNKNOWN_ACTION / UNKNOWN_CAPABILITY (400 with the domain code), not a schema failure.
 */

const KEY = { type: 'string', minLength: 1, maxLength: 64 };
const TIER_REF = {
  type: 'object',
  required: ['code', 'name'],
  properties: { code: { type: 'string' }, name: { type: 'string' } },
};

export const canBody = {
  type: 'object',
  additionalProperties: false,
  required: ['action', 'resourceCount'],
  properties: {
    action: KEY,
    // Above 2^53 − 1 a JSON number is no longer an exact integer.
    resourceCount: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
  },
};

export const upgradeContextQuery = {
  type: 'object',
  required: ['capability'],
  properties: { capability: KEY },
};

const usageReport = {
  type: 'object',
  required: ['tier', 'limits', 'rateLimits', 'warnings'],
  properties: {
    tier: TIER_REF,
    limits: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['current', 'limit', 'unlimited'],
        properties: {
          current: { type: 'integer' },
          limit: { type: ['integer', 'null'] },
          unlimited: { type: 'boolean' },
        },
      },
    },
    rateLimits: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['current', 'limit', 'resetsAt'],
        properties: {
          current: { type: 'integer' },
          limit: { type: 'integer' },
          resetsAt: { type: 'string' },
        },
      },
    },
    warnings: {
      type: 'array',
      items: {
        type: 'object',
        required: ['limit', 'level', 'current', 'max', 'percentUsed', 'message'],
        properties: {
          limit: { type: 'string' },
          level: { type: 'string' },
          current: { type: 'integer' },
          max: { type: 'integer' },
          percentUsed: { type: 'integer' },
          message: { type: 'string' },
        },
      },
    },
  },
};

const canDecision = {
  type: 'object',
  required: ['allowed', 'reason'],
  properties: {
    allowed: { type: 'boolean' },
    reason: { type: ['string', 'null'] },
    details: {
      type: 'object',
      required: ['limit', 'current', 'requested', 'available'],
      properties: {
        limit: { type: 'string' },
        current: { type: 'integer' },
        requested: { type: 'integer' },
        available: { type: 'integer' },
      },
    },
  },
};

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
    capability: { type: 'string' },
    frictionType: { type: 'string' },
    upgradeAvailable: { type: 'boolean' },
    currentTier: TIER_REF,
    targetTier: TIER_REF,
    headline: { type: 'string' },
    featureHighlights: { type: 'array', items: { type: 'string' } },
    cta: { type: 'string' },
  },
};

export const usageResponse = { 200: envelopeSchema(usageReport) };
export const canResponse = { 200: envelopeSchema(canDecision) };
export const upgradeContextResponse = { 200: envelopeSchema(upgradeContext) };
