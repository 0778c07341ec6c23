export type {
  EntitlementsServiceClient,
  EntitlementsServiceHandlers,
  EntitlementsServiceDefinition,
} from './generated/tap/entitlements/v1/EntitlementsService.js';
export type { TierAssignment, TierAssignment__Output } from './generated/tap/entitlements/v1/TierAssignment.js';
export type { SetTierRequest__Output } from './generated/tap/entitlements/v1/SetTierRequest.js';
