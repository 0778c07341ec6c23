import { Type, type Static } from '@sinclair/typebox';
import { Envelope, MapOf, Nullable } from '../typebox.js';
import { TierRef, UpgradeContext } from './upgrade-context-schema.js';

/*
 * Request and response schemas of the entitlement endpoints, in TypeBox: one declaration gives
 * Fastify's validation and serialisation, the OpenAPI document and the handlers' types. Keys
 * stay strings with a length bound rather than enums: an unknown action or capability is the
 * entitlements service's UNKNOWN_ACTION / UNKNOWN_CAPABILITY (400 with the domain code), not a
 * schema failure.
 */

const Key = Type.String({ minLength: 1, maxLength: 64 });

export const CanBody = Type.Object(
  {
    action: Key,
    // Above 2^53 − 1 a JSON number is no longer an exact integer.
    resourceCount: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  },
  { additionalProperties: false },
);
export type CanBody = Static<typeof CanBody>;

export const UpgradeContextQuery = Type.Object({ capability: Key });
export type UpgradeContextQuery = Static<typeof UpgradeContextQuery>;

const UsageReport = Type.Object({
  tier: TierRef,
  limits: MapOf(
    Type.Object({ current: Type.Integer(), limit: Nullable(Type.Integer()), unlimited: Type.Boolean() }),
  ),
  rateLimits: MapOf(Type.Object({ current: Type.Integer(), limit: Type.Integer(), resetsAt: Type.String() })),
  warnings: Type.Array(
    Type.Object({
      limit: Type.String(),
      level: Type.String(),
      current: Type.Integer(),
      max: Type.Integer(),
      percentUsed: Type.Integer(),
      message: Type.String(),
    }),
  ),
});

const CanDecision = Type.Object({
  allowed: Type.Boolean(),
  reason: Nullable(Type.String()),
  details: Type.Optional(
    Type.Object({
      limit: Type.String(),
      current: Type.Integer(),
      requested: Type.Integer(),
      available: Type.Integer(),
    }),
  ),
});

export const usageResponse = { 200: Envelope(UsageReport) };
export const canResponse = { 200: Envelope(CanDecision) };
export const upgradeContextResponse = { 200: Envelope(UpgradeContext) };
