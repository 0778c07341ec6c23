import { describe, expect, it } from '@jest/globals';
import type { ComponentScore } from './component-score.js';
import { healthScore } from './health-score.js';

const component = (code: ComponentScore['code'], value: number, present = true): ComponentScore => ({
  code,
  present,
  value,
  eventIds: [],
  reason: '',
});

describe('healthScore', () => {
  it('is the weighted mean of all components when all are present', () => {
    const { score } = healthScore([
      component('JOURNEY_PROGRESS', 50),
      component('ENGAGEMENT', 80),
      component('NETWORK', 40),
      component('DATA_FRESHNESS', 100),
      component('RESPONSIVENESS', 0),
    ]);
    expect(score).toBe(58); // 15 + 20 + 8 + 15 + 0
  });

  it('drops absent components and renormalises the remaining weights', () => {
    const { score, components } = healthScore([
      component('JOURNEY_PROGRESS', 50),
      component('ENGAGEMENT', 80),
      component('NETWORK', 40),
      component('DATA_FRESHNESS', 0, false),
      component('RESPONSIVENESS', 0, false),
    ]);
    expect(score).toBe(57); // (15 + 20 + 8) / 0.75 = 57.3
    expect(components.map((c) => c.points)).toEqual([20, 26.7, 10.7, 0, 0]);
    expect(components.map((c) => c.effectiveWeight)).toEqual([0.4, 0.3333, 0.2667, 0, 0]);
    expect(components[3]).toMatchObject({ present: false, value: null });
  });
});
