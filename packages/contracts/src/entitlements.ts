export type {
  EntitlementsServiceClient,
  EntitlementsServiceHandlers,
  EntitlementsServiceDefinition,
} from './generated/tap/entitlements/v1/EntitlementsService.js';
export type {
  TierAssignment,
  TierAssignment__Output,
} from './generated/tap/entitlements/v1/TierAssignment.js';
export type { SetTierRequest__Output } from './generated/tap/entitlements/v1/SetTierRequest.js';
export type { TierRef, TierRef__Output } from './generated/tap/entitlements/v1/TierRef.js';
export type {
  GetUsageRequest,
  GetUsageRequest__Output,
} from './generated/tap/entitlements/v1/GetUsageRequest.js';
export type { UsageReport, UsageReport__Output } from './generated/tap/entitlements/v1/UsageReport.js';
export type { LimitUsage, LimitUsage__Output } from './generated/tap/entitlements/v1/LimitUsage.js';
export type {
  RateLimitUsage,
  RateLimitUsage__Output,
} from './generated/tap/entitlements/v1/RateLimitUsage.js';
export type { UsageWarning, UsageWarning__Output } from './generated/tap/entitlements/v1/UsageWarning.js';
export type { CanRequest, CanRequest__Output } from './generated/tap/entitlements/v1/CanRequest.js';
export type { CanDecision, CanDecision__Output } from './generated/tap/entitlements/v1/CanDecision.js';
export type { CanDetails, CanDetails__Output } from './generated/tap/entitlements/v1/CanDetails.js';
export type {
  GetUpgradeContextRequest,
  GetUpgradeContextRequest__Output,
} from './generated/tap/entitlements/v1/GetUpgradeContextRequest.js';
export type {
  UpgradeContext,
  UpgradeContext__Output,
} from './generated/tap/entitlements/v1/UpgradeContext.js';
export type { Reservation, Reservation__Output } from './generated/tap/entitlements/v1/Reservation.js';
export type {
  ReserveRequest,
  ReserveRequest__Output,
} from './generated/tap/entitlements/v1/ReserveRequest.js';
export type {
  ReserveResponse,
  ReserveResponse__Output,
} from './generated/tap/entitlements/v1/ReserveResponse.js';
export type {
  ConsumeRequest,
  ConsumeRequest__Output,
} from './generated/tap/entitlements/v1/ConsumeRequest.js';
export type {
  ReleaseRequest,
  ReleaseRequest__Output,
} from './generated/tap/entitlements/v1/ReleaseRequest.js';
export type {
  ReservationResponse,
  ReservationResponse__Output,
} from './generated/tap/entitlements/v1/ReservationResponse.js';
export type { SeatRequest, SeatRequest__Output } from './generated/tap/entitlements/v1/SeatRequest.js';
export type { SeatResponse, SeatResponse__Output } from './generated/tap/entitlements/v1/SeatResponse.js';
export type {
  SyncSeatsRequest,
  SyncSeatsRequest__Output,
} from './generated/tap/entitlements/v1/SyncSeatsRequest.js';
export type {
  SyncSeatsResponse,
  SyncSeatsResponse__Output,
} from './generated/tap/entitlements/v1/SyncSeatsResponse.js';
