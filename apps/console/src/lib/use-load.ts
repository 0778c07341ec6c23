import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from './api.js';
import { refusalWords } from './refusals.js';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs `load` on mount, on `reload()` and when one of `deps` changes (a page whose cards reload
 * together passes its own counter); the page shows `error` instead of failing silently.
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[] = []): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) =>
        live &&
        setState({
          loading: false,
          error:
            error instanceof ApiError ? error : new ApiError(0, 'NETWORK', 'The API could not be reached'),
        }),
    );
    return () => {
      live = false;
    };
    // `load` is a fresh closure each render; `round` and `deps` are what ask for a reload.
  }, [round, ...deps]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** The message shown for a refusal: a known code in words, else the server's own message. */
export function describe(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please try again.';
  if (error.status === 403 && (error.code === 'ROLE_FORBIDDEN' || error.code === 'insufficient_scope'))
    return 'Only an Owner or Admin of your company can do this.';
  if (error.status === 503) return 'The service is busy. Please try again in a moment.';
  return refusalWords(error) ?? error.message;
}

/** The API said the caller's role may not use this page (a MEMBER on an OWNER/ADMIN page). */
export const isRoleRefusal = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 403 && error.code === 'ROLE_FORBIDDEN';
