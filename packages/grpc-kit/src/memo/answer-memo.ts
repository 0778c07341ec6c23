import { deepFreeze } from './deep-freeze.js';

/** Answers kept per source object (a few combinations of its other inputs at once). */
const ANSWERS_PER_SOURCE = 4;

/** Returns the answer built from `source` and `inputs`, built once for the same ones. */
export type AnswerMemo<S extends object, A extends object> = (
  source: S,
  inputs: readonly unknown[],
  build: () => A,
) => A;

/**
 * One read RPC's memo of its wire answer, keyed weakly by the object it is computed from and
 * compared by identity on its other inputs. Meant for sources and inputs a read model hands out
 * (a cached aggregate or view, a memoised recompute, a cached tier): the read model makes a new
 * object for every change it knows of, so an answer kept here is exactly as fresh as what it was
 * built from, and only that tenant's objects lead to it. `build` must depend on the source and
 * inputs alone. The answer is deep-frozen: createGrpcServer then encodes it once
 * (memoiseFrozenEncoding) and the calls that share it send the same bytes. Bounded by the read
 * models: an entry goes with its source, at most ANSWERS_PER_SOURCE per source.
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
