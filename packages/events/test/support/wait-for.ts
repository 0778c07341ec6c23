// The one bounded poll every suite uses lives in @tap/testkit.
export { waitFor } from '@tap/testkit';

/** A promise with its resolve function, for handlers a test releases when it decides. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
