/**
 * The hand-over of API request counts from the gateway to entitlements' usage history: the
 * gateway adds each tenant's metered requests of a UTC day to a Redis hash (`HINCRBY`, batched),
 * entitlements copies the hash's counts into the history (absolute values, so a copy taken twice
 * is harmless). Field = tenant id, value = requests counted that day. docs/entitlements-model.md,
 * "Usage history".
 */
export function apiRequestDaysKey(day: string): string {
  return `api-requests:${day}`;
}

/** How long a day's hash lives: the day, the next one (its last copy), and a day to spare. */
export const API_REQUEST_DAYS_TTL_S = 3 * 86_400;
