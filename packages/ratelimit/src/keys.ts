import { RateLimitConfigError } from './errors.js';
import type { ResolvedRule } from './rules.js';

/** Longest subject accepted; callers hash long secrets (tokens) before using them as subjects. */
export const MAX_SUBJECT_LENGTH = 512;

const PREFIX_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * Checks a key prefix. Braces are refused because Redis Cluster hashes only the text between
 * the first `{` and the next `}`: a brace in the prefix would move the hash tag off the subject.
 */
export function assertKeyPrefix(prefix: string): void {
  if (!PREFIX_PATTERN.test(prefix)) {
    throw new RateLimitConfigError(
      'RATE_LIMIT_INVALID_OPTIONS',
      'keyPrefix must be 1-64 of letters, digits, _ . : - (no braces)',
    );
  }
}

/**
 * The hash tag of a subject: `{subject}` with `%`, `{` and `}` percent-encoded, so a subject
 * can neither end the tag early (which would split one subject's keys over slots) nor collide
 * with another subject after encoding.
 */
export function subjectTag(subject: string): string {
  if (typeof subject !== 'string' || subject.length === 0 || subject.length > MAX_SUBJECT_LENGTH) {
    throw new RateLimitConfigError(
      'RATE_LIMIT_INVALID_SUBJECT',
      `subject must be a string of 1 to ${MAX_SUBJECT_LENGTH} characters`,
    );
  }
  return `{${subject.replace(/[%{}]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}}`;
}

/**
 * The Redis key of one subject's counters under one rule: `<prefix>:{<subject>}:<name>:<windowMs>/<subWindows>`.
 * Every key of a subject shares its hash tag, so the one script that checks all its windows
 * never meets CROSSSLOT on a cluster. The geometry is in the key because sub-window indexes
 * mean nothing under another sub-window length: changing it starts a fresh count.
 */
export function counterKey(prefix: string, subject: string, rule: ResolvedRule): string {
  return `${prefix}:${subjectTag(subject)}:${rule.name}:${rule.windowMs}/${rule.subWindows}`;
}
