import { describe, expect, it } from '@jest/globals';
import { answerMemo } from './answer-memo.js';

describe('answerMemo', () => {
  it('builds an answer once per source and inputs, and hands it out frozen', () => {
    const memo = answerMemo<object, { n: number; list: number[] }>();
    const source = {};
    let builds = 0;
    const build = () => ({ n: (builds += 1), list: [1] });
    const first = memo(source, ['CORE', 50], build);
    expect(memo(source, ['CORE', 50], build)).toBe(first);
    expect(builds).toBe(1);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.list)).toBe(true);
  });

  it('builds anew for another source (a newer recompute, another tenant) or other inputs', () => {
    const memo = answerMemo<object, { tag: string }>();
    const [a, b] = [{}, {}];
    const tier = {};
    expect(memo(a, [tier], () => ({ tag: 'a' })).tag).toBe('a');
    expect(memo(b, [tier], () => ({ tag: 'b' })).tag).toBe('b');
    // Inputs compare by identity: an equal but new tier object is another tier read.
    expect(memo(a, [{}], () => ({ tag: 'a, new tier' })).tag).toBe('a, new tier');
    expect(memo(a, [tier, 10], () => ({ tag: 'a, limit 10' })).tag).toBe('a, limit 10');
    expect(memo(a, [tier], () => ({ tag: 'rebuilt' })).tag).toBe('a');
  });

  it('keeps at most four answers per source', () => {
    const memo = answerMemo<object, { limit: number }>();
    const source = {};
    let builds = 0;
    const read = (limit: number) =>
      memo(source, [limit], () => {
        builds += 1;
        return { limit };
      });
    for (const limit of [1, 2, 3, 4, 5]) read(limit);
    expect(builds).toBe(5);
    read(5);
    read(2);
    expect(builds).toBe(5);
    read(1);
    expect(builds).toBe(6);
  });
});
