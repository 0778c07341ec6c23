import type { CanDecision__Output, UsageReport__Output } from '@tap/contracts';

/** The spec's Usage report from the wire message: lists become objects keyed by limit key. */
export function usageReportJson(report: UsageReport__Output) {
  return {
    tier: { code: report.tier?.code ?? '', name: report.tier?.name ?? '' },
    limits: Object.fromEntries(
      report.limits.map((l) => [
        l.key,
        { current: l.current, limit: l.unlimited ? null : (l.limit ?? null), unlimited: l.unlimited },
      ]),
    ),
    rateLimits: Object.fromEntries(
      report.rateLimits.map((r) => [r.key, { current: r.current, limit: r.limit, resetsAt: r.resetsAt }]),
    ),
    warnings: report.warnings.map((w) => ({
      limit: w.limit,
      level: w.level,
      current: w.current,
      max: w.max,
      percentUsed: w.percentUsed,
      message: w.message,
    })),
  };
}

/** `can`'s answer: `reason` null when allowed, `details` only when a limit refused. */
export function canDecisionJson(decision: CanDecision__Output) {
  const { details } = decision;
  return {
    allowed: decision.allowed,
    reason: decision.reason ?? null,
    ...(details
      ? {
          details: {
            limit: details.limit,
            current: details.current,
            requested: details.requested,
            available: details.available,
          },
        }
      : {}),
  };
}
