import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../typebox.js';

/*
 * Request schemas of the adoption endpoints, in TypeBox (validation, the document and the
 * handlers' types from one declaration). Requests are bounded here (sizes, types); rules with
 * their own codes (title length, objective count, unknown milestone keys, timestamps in the
 * future) are the adoption service's, so a caller gets PLAN_NO_OBJECTIVES rather than a generic
 * schema failure.
 */

/** 1 to 200 (MAX_SIGNAL_LIMIT) as query text: no sign, no fraction, no leading zero. */
export const SIGNAL_LIMIT_PATTERN = '^(?:[1-9]|[1-9][0-9]|1[0-9]{2}|200)$';

export const MilestoneKeyParams = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$' }),
});

/** An absent body (null) is a completion without evidence. */
export const CompleteBody = Nullable(
  Type.Object(
    {
      evidenceRef: Type.Optional(Type.String({ maxLength: 500 })),
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
    label: Type.String({ maxLength: 1_000 }),
    milestoneKeys: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 }),
    // Accepted because the spec's request shape has it; ignored, `met` is always computed.
    met: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const CreatePlanBody = Type.Object(
  {
    title: Type.String({ maxLength: 1_000 }),
    targetDate: Type.String({ maxLength: 64 }),
    objectives: Type.Array(ObjectiveInput, { maxItems: 100 }),
  },
  { additionalProperties: false },
);
export type CreatePlanBody = Static<typeof CreatePlanBody>;

export const RenewPlanBody = Type.Object(
  {
    fromPlanId: Type.String({ format: 'uuid' }),
    targetDate: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
