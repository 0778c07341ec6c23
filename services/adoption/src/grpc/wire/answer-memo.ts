import { deepFreeze } from '@tap/grpc-kit';

/** Answers kept per source object (a few combinations of its other inputs at once). */
const ANSWERS_PER_SOURCE = 4;

/** Returns the answer built from `source` and `inputs`, built once for the same ones. */
export type AnswerMemo<S extends object, A extends object> = (
  source: S,
  inputs: readonly unknown[],
  build: () => A,
) => A;

/**
 * One read RPC's memo of its wire answer, keyed weakly by the object it is computed from (a
 * recompute result, or the cached aggregate) and compared by identity on the other inputs (the
 * cached tier, the cached plan, the limit). Every source and input comes from the read models and
 * the recompute memo (docs/adoption-model.md, "Read models"), which make a new object for every
 * write, notice, tier change and recompute past its 1 s: an answer kept here is exactly as fresh
 * as what it was built from, and only ever reached through that tenant's own objects. The answer
 * is deep-frozen: grpc-kit's server then encodes it once (memoiseFrozenEncoding) and the calls
 * that share it send the same bytes. Bounded by the read models: an entry goes with its source.
 */
export function answerMemo<S extends object, A extends object>(): AnswerMemo<S, A> {
  const answers = new WeakMap<
    S,
    ReadonlyArray<{ readonly inputs: readonly unknown[]; readonly answer: A }>
  >();
  return (source, inputs, build) => {
    const kept = answers.get(source) ?? [];
    const found = kept.find(
      (k) => k.inputs.length === inputs.length && k.inputs.every((input, i) => input === inputs[i]),
    );
    if (found) return found.answer;
    const answer = deepFreeze(build());
    answers.set(source, [...kept.slice(-(ANSWERS_PER_SOURCE - 1)), { inputs, answer }]);
    return answer;
  };
}
