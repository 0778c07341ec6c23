export type {
  AdoptionServiceClient,
  AdoptionServiceHandlers,
  AdoptionServiceDefinition,
} from './generated/tap/adoption/v1/AdoptionService.js';
export type { AdoptionState, AdoptionState__Output } from './generated/tap/adoption/v1/AdoptionState.js';
export type { Milestone, Milestone__Output } from './generated/tap/adoption/v1/Milestone.js';
export type { CompleteMilestoneRequest__Output } from './generated/tap/adoption/v1/CompleteMilestoneRequest.js';
export type {
  UpgradeContext as AdoptionUpgradeContext,
  UpgradeContext__Output as AdoptionUpgradeContext__Output,
} from './generated/tap/adoption/v1/UpgradeContext.js';
export type {
  RankedMilestone,
  RankedMilestone__Output,
} from './generated/tap/adoption/v1/RankedMilestone.js';
export type {
  NextBestActionView,
  NextBestActionView__Output,
} from './generated/tap/adoption/v1/NextBestActionView.js';
export type { CoverageCell, CoverageCell__Output } from './generated/tap/adoption/v1/CoverageCell.js';
export type { Coverage, Coverage__Output } from './generated/tap/adoption/v1/Coverage.js';
export type { RiskSignal, RiskSignal__Output } from './generated/tap/adoption/v1/RiskSignal.js';
export type { RiskSignalList, RiskSignalList__Output } from './generated/tap/adoption/v1/RiskSignalList.js';
export type {
  HealthComponent,
  HealthComponent__Output,
} from './generated/tap/adoption/v1/HealthComponent.js';
export type {
  HealthExplanation,
  HealthExplanation__Output,
} from './generated/tap/adoption/v1/HealthExplanation.js';
export type { Objective, Objective__Output } from './generated/tap/adoption/v1/Objective.js';
export type { SuccessPlan, SuccessPlan__Output } from './generated/tap/adoption/v1/SuccessPlan.js';
export type {
  SuccessPlanView,
  SuccessPlanView__Output,
} from './generated/tap/adoption/v1/SuccessPlanView.js';
export type { CreateSuccessPlanRequest__Output } from './generated/tap/adoption/v1/CreateSuccessPlanRequest.js';
export type { RenewSuccessPlanRequest__Output } from './generated/tap/adoption/v1/RenewSuccessPlanRequest.js';
