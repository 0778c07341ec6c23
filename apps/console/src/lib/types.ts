/** The shapes the console reads, as the gateway's OpenAPI document declares them. */

export interface TierRef {
  code: string;
  name: string;
}

export interface UpgradeContext {
  capability: string;
  frictionType: string;
  upgradeAvailable: boolean;
  currentTier: TierRef;
  targetTier?: TierRef;
  headline: string;
  featureHighlights: string[];
  cta: string;
}

export interface Milestone {
  key: string;
  chapter: number;
  internalStage: string;
  status: string;
  completionMode: string;
  triggerEvent: string;
  dependsOn: string[];
  displayOrder: number;
  requiredCapability: string | null;
  paidTeaser: boolean;
  lockedReasons: { unmetDependencyKey: string }[];
  completedAt: string | null;
  upgradeContext: UpgradeContext | null;
}

export interface AdoptionState {
  companyId: string;
  currentMaturityRung: string;
  pathProfile: string;
  healthScore: number | null;
  healthBand: string;
  networkDensity: number;
  lastRecomputedAt: string;
  version: number;
  milestones: Milestone[];
}

export interface NextBestAction {
  nextBestAction: (Milestone & { unlocks: number; becauseOf: string }) | null;
  nextUpgradePrompt: UpgradeContext | null;
}

export interface HealthExplanation {
  healthScore: number | null;
  healthBand: string;
  bandReason: string;
  rungReason: string;
  summary: string;
  components: { code: string; present: boolean; points: number; reason: string }[];
}

export interface CoverageCell {
  key: string;
  label: string;
  capable: boolean;
  achieved: boolean;
  count: number;
  viewedCount: number;
}

export interface RiskSignal {
  id: string;
  kind: string;
  severity: string;
  resolution: string;
  escalatedToHuman: boolean;
  detectedAt: string;
}

export interface SuccessPlan {
  id: string;
  title: string;
  targetDate: string;
  status: string;
  renewedFromId: string | null;
  objectives: { label: string; milestoneKeys: string[]; met: boolean }[];
  createdAt: string;
}

export interface UsageReport {
  tier: TierRef;
  limits: Record<string, { current: number; limit: number | null; unlimited: boolean }>;
  rateLimits: Record<string, { current: number; limit: number; resetsAt: string }>;
  warnings: { limit: string; level: string; percentUsed: number; message: string }[];
}

export interface OAuthClient {
  clientId: string;
  name: string;
  scopes: string[];
  createdAt: string;
  secretRotatedAt: string;
}

export interface JoinRequest {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  status: string;
  createdAt: string;
}

export interface Tenant {
  id: string;
  name: string;
  slug: string;
  subscriptionTier: string;
}

export interface SessionUser {
  id: string;
  email: string;
  role: string;
  firstName: string;
  lastName: string;
  tenant: Tenant;
}
