import { CAPABILITY_COPY, formatCount, LIMIT_COPY } from '../catalogue/copy.js';
import { CAPABILITY_KEYS, LIMIT_KEYS, RATE_LIMIT_KEYS } from '../catalogue/keys.js';
import type { Tier } from '../catalogue/tier.js';
import type { FrictionKey } from './friction.js';
import { grantsMore } from './upgrade-target.js';

/** A prompt lists at most this many highlights: enough to sell the step, short enough to read. */
export const MAX_FEATURE_HIGHLIGHTS = 5;

/** The words of an upgrade prompt. */
export interface PromptCopy {
  readonly headline: string;
  readonly featureHighlights: string[];
  readonly cta: string;
}

const ALL_SUBJECTS: readonly FrictionKey[] = [
  ...CAPABILITY_KEYS.map((key) => ({ frictionType: 'CAPABILITY', key }) as const),
  ...LIMIT_KEYS.map((key) => ({ frictionType: 'LIMIT', key }) as const),
  ...RATE_LIMIT_KEYS.map((key) => ({ frictionType: 'RATE_LIMIT', key }) as const),
];

/** Copy for a prompt that offers `target`: what was asked for first, then the other gains. */
export function upgradeCopy(current: Tier, target: Tier, subject: FrictionKey): PromptCopy {
  return {
    headline: upgradeHeadline(current, target, subject),
    featureHighlights: featureHighlights(current, target, subject),
    cta: `Upgrade to ${target.name}`,
  };
}

function upgradeHeadline(current: Tier, target: Tier, subject: FrictionKey): string {
  if (subject.frictionType === 'CAPABILITY')
    return `Unlock ${CAPABILITY_COPY[subject.key].label} with ${target.name}`;
  const ceiling =
    subject.frictionType === 'LIMIT' ? current.limits[subject.key] : current.rateLimits[subject.key];
  // "More" of nothing reads oddly: a ceiling of 0 means the tier has none of it yet.
  return `Get ${ceiling === 0 ? '' : 'more '}${LIMIT_COPY[subject.key].noun} with ${target.name}`;
}

/** Copy for a key the tier already has in full: the feature is on, or there is no ceiling. */
export function includedCopy(current: Tier, subject: FrictionKey): PromptCopy {
  if (subject.frictionType === 'CAPABILITY') {
    const copy = CAPABILITY_COPY[subject.key];
    return {
      headline: `${copy.label} is included in your ${current.name} plan`,
      featureHighlights: [copy.highlight],
      cta: 'Get started',
    };
  }
  const noun = LIMIT_COPY[subject.key].noun;
  return {
    headline: `Your ${current.name} plan has no limit on ${noun}`,
    featureHighlights: [],
    cta: 'Get started',
  };
}

/** Copy for a wall no tier on the tenant's path removes: only a conversation can. */
export function noUpgradeCopy(current: Tier, subject: FrictionKey): PromptCopy {
  const headline =
    subject.frictionType === 'CAPABILITY'
      ? `${CAPABILITY_COPY[subject.key].label} is not offered above your ${current.name} plan`
      : `Your ${current.name} plan already has our highest limit for ${LIMIT_COPY[subject.key].noun}`;
  return { headline, featureHighlights: [], cta: 'Contact your account team' };
}

/** What `target` adds over `current`, the asked-for key first, catalogue order after. */
export function featureHighlights(current: Tier, target: Tier, asked: FrictionKey): string[] {
  const others = ALL_SUBJECTS.filter((s) => s.key !== asked.key);
  return [asked, ...others]
    .filter((subject) => grantsMore(current, target, subject))
    .map((subject) => gainLine(current, target, subject))
    .slice(0, MAX_FEATURE_HIGHLIGHTS);
}

function gainLine(current: Tier, target: Tier, subject: FrictionKey): string {
  switch (subject.frictionType) {
    case 'CAPABILITY':
      return CAPABILITY_COPY[subject.key].highlight;
    case 'LIMIT':
      return changeLine(subject.key, current.limits[subject.key], target.limits[subject.key]);
    case 'RATE_LIMIT':
      return changeLine(subject.key, current.rateLimits[subject.key], target.rateLimits[subject.key]);
  }
}

function changeLine(key: keyof typeof LIMIT_COPY, from: number | null, to: number | null): string {
  return `${LIMIT_COPY[key].label}: ${describeCeiling(from)} → ${describeCeiling(to)}`;
}

function describeCeiling(value: number | null): string {
  if (value === null) return 'unlimited';
  return value === 0 ? 'none' : formatCount(value);
}
