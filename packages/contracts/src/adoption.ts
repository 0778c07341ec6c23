export type {
  AdoptionServiceClient,
  AdoptionServiceHandlers,
  AdoptionServiceDefinition,
} from './generated/tap/adoption/v1/AdoptionService.js';
export type { AdoptionState, AdoptionState__Output } from './generated/tap/adoption/v1/AdoptionState.js';
export type { Milestone, Milestone__Output } from './generated/tap/adoption/v1/Milestone.js';
export type { CompleteMilestoneRequest__Output } from './generated/tap/adoption/v1/CompleteMilestoneRequest.js';
