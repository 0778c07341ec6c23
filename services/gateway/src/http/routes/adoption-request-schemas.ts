import { Type, type Static } from '@sinclair/typebox';
import { FUTURE_DATE_TIME } from '../formats.js';
import { NOT_BLANK, Nullable } from '../typebox.js';

/*
 * Request schemas of the adoption endpoints, in TypeBox (validation, the document and the
 * handlers' types from one declaration). Every rule of the adoption service's that a schema can
 * say is said here, so the document is as strict as the server (a request it calls valid is not
 * refused for its shape): text 1–200 characters with something besides blanks, 1–20 objectives
 * each with at least one milestone key, a zoned target date in the future. The service checks
 * them again (zero trust) with its own codes; whether a milestone key exists for the tenant's
 * journey is its alone (404 PLAN_UNKNOWN_MILESTONES).
 */

/** Longest plan title and objective label (the service's MAX_PLAN_TEXT). */
const MAX_PLAN_TEXT = 200;
/** Most objectives in one plan (the service's MAX_OBJECTIVES). */
const MAX_OBJECTIVES = 20;

const PlanText = Type.String({ minLength: 1, maxLength: MAX_PLAN_TEXT, pattern: NOT_BLANK });
const TargetDate = Type.String({
  format: FUTURE_DATE_TIME,
  maxLength: 64,
  description: 'An RFC 3339 date-time with its zone, later than now',
});
const MILESTONE_KEY = { minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$' };

/** 1 to 200 (MAX_SIGNAL_LIMIT) as query text: no sign, no fraction, no leading zero. */
export const SIGNAL_LIMIT_PATTERN = '^(?:[1-9]|[1-9][0-9]|1[0-9]{2}|200)$';

export const MilestoneKeyParams = Type.Object({ key: Type.String(MILESTONE_KEY) });

/** An absent body (null) is a completion without evidence. */
export const CompleteBody = Nullable(
  Type.Object(
    {
      evidenceRef: Type.Optional(Type.String({ minLength: 1, maxLength: 500, pattern: NOT_BLANK })),
      expectedVersion: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    },
    { additionalProperties: false },
  ),
);

export const RiskSignalsQuery = Type.Object({
  limit: Type.Optional(Type.String({ pattern: SIGNAL_LIMIT_PATTERN })),
});

const ObjectiveInput = Type.Object(
  {
    label: PlanText,
    milestoneKeys: Type.Array(Type.String(MILESTONE_KEY), { minItems: 1, maxItems: 100 }),
    // Accepted because the spec's request shape has it; ignored, `met` is always computed.
    met: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const CreatePlanBody = Type.Object(
  {
    title: PlanText,
    targetDate: TargetDate,
    objectives: Type.Array(ObjectiveInput, { minItems: 1, maxItems: MAX_OBJECTIVES }),
  },
  { additionalProperties: false },
);
export type CreatePlanBody = Static<typeof CreatePlanBody>;

export const RenewPlanBody = Type.Object(
  {
    fromPlanId: Type.String({ format: 'uuid' }),
    targetDate: Type.Optional(TargetDate),
  },
  { additionalProperties: false },
);
