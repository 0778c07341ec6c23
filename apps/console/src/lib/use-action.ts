import { useRef, useState } from 'preact/hooks';

export interface Action {
  /** The key of the action in flight, if any (its button says so with aria-busy). */
  busy: string | undefined;
  error: unknown;
  /** What the last action did, in words, for a status message. */
  done: string | undefined;
  /** Resolves true when the change was made, false when refused or ignored. */
  run: (key: string, work: () => Promise<string>) => Promise<boolean>;
  clear: () => void;
}

/**
 * One change at a time on a card: a second one while the first is in flight is ignored (the
 * buttons stay enabled, because Chromium moves focus off a button that becomes disabled, and a
 * keyboard user would lose their place), the refusal or outcome is kept to show, and `settled`
 * runs after either: the card reads the truth again (a refusal such as USER_NOT_FOUND means the
 * list on screen was stale).
 */
export function useAction(settled: () => void): Action {
  const [state, setState] = useState<{ busy?: string; error?: unknown; done?: string }>({});
  const inFlight = useRef(false);
  const run = async (key: string, work: () => Promise<string>) => {
    if (inFlight.current) return false;
    inFlight.current = true;
    setState({ busy: key });
    try {
      setState({ done: await work() });
      return true;
    } catch (error) {
      setState({ error });
      return false;
    } finally {
      inFlight.current = false;
      settled();
    }
  };
  return { busy: state.busy, error: state.error, done: state.done, run, clear: () => setState({}) };
}
