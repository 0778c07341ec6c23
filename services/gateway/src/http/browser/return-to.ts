/**
 * `returnTo` of the SSO start: a same-site relative path only (no open redirect). It must start
 * with one `/` (not `//` or `/\`, which browsers read as another host), contain no control
 * characters or backslashes, and stay on the app's origin when resolved against it.
 */
export function safeReturnTo(value: unknown): string | undefined {
  if (value === undefined || value === '') return '/';
  if (typeof value !== 'string' || value.length > 2_048) return undefined;
  // eslint-disable-next-line no-control-regex
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(value))
    return undefined;
  const base = 'https://app.invalid';
  const resolved = new URL(value, base);
  if (resolved.origin !== base) return undefined;
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
