/*
 * Request schemas of the adoption endpoints. Requests are bounded here (sizes, types); rules
 * with their own codes (title length, objective count, unknown milestone keys, timestamps in
 * the future) are the adoption service's, so a caller gets PLAN_NO_OBJECTIVES rather than a
 * generic schema failure.
 */

/** 1 to 200 (MAX_SIGNAL_LIMIT) as query text: no sign, no fraction, no leading zero. */
export const SIGNAL_LIMIT_PATTERN = '^(?:[1-9]|[1-9][0-9]|1[0-9]{2}|200)$';

export const milestoneKeyParams = {
  type: 'object',
  required: ['key'],
  properties: { key: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$' } },
};

export const completeBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    evidenceRef: { type: 'string', maxLength: 500 },
    expectedVersion: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
  },
};

export const riskSignalsQuery = {
  type: 'object',
  properties: { limit: { type: 'string', pattern: SIGNAL_LIMIT_PATTERN } },
};

const objectiveInput = {
  type: 'object',
  additionalProperties: false,
  required: ['label', 'milestoneKeys'],
  properties: {
    label: { type: 'string', maxLength: 1_000 },
    milestoneKeys: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 100 } },
    // Accepted because the spec's request shape has it; ignored, `met` is always computed.
    met: { type: 'boolean' },
  },
};

export const createPlanBody = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'targetDate', 'objectives'],
  properties: {
    title: { type: 'string', maxLength: 1_000 },
    targetDate: { type: 'string', maxLength: 64 },
    objectives: { type: 'array', maxItems: 100, items: objectiveInput },
  },
};

export const renewPlanBody = {
  type: 'object',
  additionalProperties: false,
  required: ['fromPlanId'],
  properties: {
    fromPlanId: { type: 'string', format: 'uuid' },
    targetDate: { type: 'string', maxLength: 64 },
  },
};
