import type { RiskKind, RiskResolution as Resolution, RiskSeverity as Severity } from '@tap/contracts';
// The words of a risk signal are the contract's (@tap/contracts, adoption-vocabulary.ts).
export { RISK_KINDS, RISK_RESOLUTIONS as RESOLUTIONS, RISK_SEVERITIES as SEVERITIES } from '@tap/contracts';
export type { RiskKind, RiskResolution as Resolution, RiskSeverity as Severity } from '@tap/contracts';

/** A drift-watch item (the spec's Risk signal). */
export interface RiskSignal {
  /** Name-based UUID of (tenant, kind, subject): the same risk always has the same id. */
  readonly id: string;
  readonly kind: RiskKind;
  readonly severity: Severity;
  readonly resolution: Resolution;
  readonly escalatedToHuman: boolean;
  /** What the risk is about, e.g. `{ connectionId }`; `{ companyId }` for tenant-wide risks. */
  readonly subjectRef: Readonly<Record<string, string>>;
  readonly detectedAt: string;
  readonly resolvedAt: string | null;
}
