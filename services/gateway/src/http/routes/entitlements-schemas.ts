import { Type, type Static } from '@sinclair/typebox';
import {
  CAN_ACTION_NAMES,
  CAN_REFUSAL_REASONS,
  LIMIT_KEYS,
  RATE_LIMIT_KEYS,
  USAGE_WARNING_LEVELS,
} from '@tap/contracts';
import { Envelope, EnumText, MapOf, Nullable, OneOf } from '../typebox.js';
import { ENTITLEMENT_KEYS, TierRef, UpgradeContext } from './upgrade-context-schema.js';

/*
 * Request and response schemas of the entitlement endpoints, in TypeBox: one declaration gives
 * Fastify's validation and serialisation, the OpenAPI document and the handlers' types. Actions,
 * capabilities and limit keys are enums of @tap/contracts' lists, the ones entitlements' catalogue
 * reads: an unknown one is refused here (400 VALIDATION_FAILED), as the document says.
 */

const LimitOrRateKey = EnumText([...LIMIT_KEYS, ...RATE_LIMIT_KEYS] as const);

export const CanBody = Type.Object(
  {
    action: OneOf(CAN_ACTION_NAMES),
    // Above 2^53 − 1 a JSON number is no longer an exact integer.
    resourceCount: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  },
  { additionalProperties: false },
);
export type CanBody = Static<typeof CanBody>;

export const UpgradeContextQuery = Type.Object({
  capability: OneOf(ENTITLEMENT_KEYS, { description: 'A capability, limit or rate-limit key' }),
});
export type UpgradeContextQuery = Static<typeof UpgradeContextQuery>;

const UsageReport = Type.Object({
  tier: TierRef,
  limits: MapOf(
    LIMIT_KEYS,
    Type.Object({ current: Type.Integer(), limit: Nullable(Type.Integer()), unlimited: Type.Boolean() }),
  ),
  rateLimits: MapOf(
    RATE_LIMIT_KEYS,
    Type.Object({ current: Type.Integer(), limit: Type.Integer(), resetsAt: Type.String() }),
  ),
  warnings: Type.Array(
    Type.Object({
      limit: LimitOrRateKey,
      level: EnumText(USAGE_WARNING_LEVELS),
      current: Type.Integer(),
      max: Type.Integer(),
      percentUsed: Type.Integer(),
      message: Type.String(),
    }),
  ),
});

const CanDecision = Type.Object({
  allowed: Type.Boolean(),
  reason: Nullable(EnumText(CAN_REFUSAL_REASONS)),
  details: Type.Optional(
    Type.Object({
      limit: EnumText(LIMIT_KEYS),
      current: Type.Integer(),
      requested: Type.Integer(),
      available: Type.Integer(),
    }),
  ),
});

export const usageResponse = { 200: Envelope(UsageReport) };
export const canResponse = { 200: Envelope(CanDecision) };
export const upgradeContextResponse = { 200: Envelope(UpgradeContext) };
