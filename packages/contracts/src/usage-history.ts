// The usage history messages of entitlements (proto/tap/entitlements/v1/usage_history.proto).
export type {
  GetUsageHistoryRequest,
  GetUsageHistoryRequest__Output,
} from './generated/tap/entitlements/v1/GetUsageHistoryRequest.js';
export type { UsageHistory, UsageHistory__Output } from './generated/tap/entitlements/v1/UsageHistory.js';
export type {
  UsageHistoryPoint,
  UsageHistoryPoint__Output,
} from './generated/tap/entitlements/v1/UsageHistoryPoint.js';
