import { isKnownForProfile } from '../catalogue/catalogue.js';
import type { PathProfile } from '../catalogue/milestone-definition.js';
import { adoptionErrors } from '../errors.js';
import type { Result } from '../result.js';
import { fail, ok } from '../result.js';
import { parseInstant, toIso } from '../time.js';
import type { CreatePlanRequest, Objective } from './success-plan.js';

/** Longest title and objective label, in characters after trimming. */
export const MAX_PLAN_TEXT = 200;
/** Most objectives one plan may carry. */
export const MAX_OBJECTIVES = 20;

/** A create request after validation: trimmed, deduplicated, targetDate canonical. */
export interface ValidPlanRequest {
  readonly title: string;
  readonly targetDate: string;
  readonly objectives: readonly Pick<Objective, 'label' | 'milestoneKeys'>[];
}

function boundedText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed.length >= 1 && trimmed.length <= MAX_PLAN_TEXT ? trimmed : null;
}

/** A target date must be a zoned ISO 8601 timestamp later than now; returned canonical. */
export function validateTargetDate(value: unknown, now: Date): Result<string> {
  const at = parseInstant(value);
  if (at === null || at <= now.getTime()) {
    return fail(adoptionErrors.create('INVALID_TARGET_DATE', { details: { targetDate: value } }));
  }
  return ok(toIso(at));
}

/** The non-empty list of strings in `value`, or null. */
function keyList(value: unknown): readonly string[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const keys: unknown[] = value;
  return keys.every((k): k is string => typeof k === 'string') ? keys : null;
}

/** The fields of an object, or none: a request is re-checked past the edge, never trusted. */
function fieldsOf(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null ? { ...value } : {};
}

function validateObjectives(raw: unknown, profile: PathProfile): Result<ValidPlanRequest['objectives']> {
  const items: readonly unknown[] = Array.isArray(raw) ? raw : [];
  if (items.length === 0) return fail(adoptionErrors.create('PLAN_NO_OBJECTIVES'));
  if (items.length > MAX_OBJECTIVES) return fail(adoptionErrors.create('PLAN_TOO_MANY_OBJECTIVES'));
  const objectives: Pick<Objective, 'label' | 'milestoneKeys'>[] = [];
  const unknown = new Set<string>();
  for (const [index, item] of items.entries()) {
    const objective = fieldsOf(item);
    const label = boundedText(objective['label']);
    const keys = keyList(objective['milestoneKeys']);
    if (label === null || keys === null) {
      return fail(adoptionErrors.create('PLAN_INVALID_OBJECTIVE', { details: { index } }));
    }
    for (const key of keys) if (!isKnownForProfile(key, profile)) unknown.add(key);
    objectives.push({ label, milestoneKeys: [...new Set(keys)] });
  }
  if (unknown.size > 0) {
    return fail(
      adoptionErrors.create('PLAN_UNKNOWN_MILESTONES', { details: { unknownKeys: [...unknown].sort() } }),
    );
  }
  return ok(objectives);
}

/**
 * Validates a create request against the tenant's profile: title 1–200 characters, targetDate
 * a future ISO timestamp, 1–20 objectives each with a label and at least one milestone key,
 * and every key a milestone that applies to the profile. The first failing rule is reported
 * (unknown keys all at once).
 */
export function validatePlanRequest(
  request: CreatePlanRequest,
  profile: PathProfile,
  now: Date,
): Result<ValidPlanRequest> {
  const title = boundedText(request.title);
  if (title === null) return fail(adoptionErrors.create('PLAN_INVALID_TITLE'));
  const targetDate = validateTargetDate(request.targetDate, now);
  if (!targetDate.ok) return targetDate;
  const objectives = validateObjectives(request.objectives, profile);
  if (!objectives.ok) return objectives;
  return ok({ title, targetDate: targetDate.value, objectives: objectives.value });
}
