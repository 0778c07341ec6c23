/** Longest `returnTo` kept: it is stored with each SSO state, so its size bounds Redis use. */
export const MAX_RETURN_TO_LENGTH = 512;

/**
 * Printable ASCII without the backslash. Browsers treat `\` as `/`, strip tabs and newlines
 * from URLs, and read some non-ASCII characters (fullwidth solidus, …) as separators after
 * normalisation; a client that wants any of those sends them percent-encoded.
 */
const PLAIN = /^[\x21-\x5b\x5d-\x7e]*$/;

/**
 * In the path, percent-encoded `.`, `/`, `\` and `%` (double encoding) are refused: a server or
 * proxy that decodes them once more turns `/%2e%2e//host` or `/%2f/host` into another site.
 * Encoded control characters are refused for the same reason. The query and fragment keep them.
 */
const ENCODED_SEPARATOR_IN_PATH = /%(?:2[ef5]|5c|[01][0-9a-f]|7f)/i;

/**
 * `returnTo` of the SSO start: where the callback sends the browser on APP_URL. The value is
 * judged twice: as sent (one leading `/`, printable ASCII, no encoded separators in the path)
 * and after WHATWG resolution against APP_URL, which collapses dot segments, so
 * `/a/..//evil.example` becomes `//evil.example`: the result must have APP_URL's origin, no
 * userinfo, and a path that is not protocol-relative when serialised again. What is returned is
 * that normalised path (with query and fragment), which resolves to the same URL again.
 * Undefined means refused.
 */
export function safeReturnTo(value: unknown, appUrl: string): string | undefined {
  if (value === undefined || value === '') return '/';
  if (typeof value !== 'string' || value.length > MAX_RETURN_TO_LENGTH) return undefined;
  if (!PLAIN.test(value) || !value.startsWith('/') || value.startsWith('//')) return undefined;
  const pathEnd = value.search(/[?#]/);
  if (ENCODED_SEPARATOR_IN_PATH.test(pathEnd < 0 ? value : value.slice(0, pathEnd))) return undefined;

  const app = new URL(appUrl);
  let resolved: URL;
  try {
    resolved = new URL(value, app);
  } catch {
    return undefined;
  }
  if (resolved.origin !== app.origin || resolved.username !== '' || resolved.password !== '')
    return undefined;
  const normalised = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  if (!normalised.startsWith('/') || normalised.startsWith('//') || normalised.length > MAX_RETURN_TO_LENGTH)
    return undefined;
  // The stored value must mean the same thing when the callback resolves it again.
  if (new URL(normalised, app).href !== resolved.href) return undefined;
  return normalised;
}

/**
 * The callback's redirect target: `returnTo` on APP_URL, or APP_URL's root when the stored value
 * would leave it (defence in depth: a state written by an older version is judged again).
 */
export function returnToLocation(returnTo: string, appUrl: string): string {
  const safe = safeReturnTo(returnTo, appUrl) ?? '/';
  return new URL(safe, appUrl).toString();
}
