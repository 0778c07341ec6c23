import { notificationErrors } from './errors.js';

/** Longest endpoint URL accepted (bytes of the serialised URL). */
export const MAX_ENDPOINT_URL_LENGTH = 2_048;

/** What registration keeps of a checked URL. */
export interface CheckedEndpointUrl {
  readonly url: string;
  readonly hostname: string;
}

/**
 * Checks the shape of an endpoint URL: absolute, `https` (or `http` for a host on the
 * development allowlist only), no user or password (they would be sent and logged by proxies),
 * no fragment. Where the host resolves is checked apart, at registration and at every delivery.
 */
export function checkEndpointUrl(input: string, devAllowedHosts: readonly string[]): CheckedEndpointUrl {
  if (input.length === 0 || input.length > MAX_ENDPOINT_URL_LENGTH) throw invalid('length');
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw invalid('not an absolute URL');
  }
  const hostname = bareHost(url.hostname);
  const devHost = devAllowedHosts.includes(hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && devHost)) throw invalid('scheme');
  if (url.username !== '' || url.password !== '') throw invalid('credentials');
  if (url.hash !== '') throw invalid('fragment');
  if (hostname === '') throw invalid('host');
  return { url: url.toString(), hostname };
}

/** `[::1]` as URL.hostname gives it, without the brackets. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function invalid(why: string) {
  return notificationErrors.create('ENDPOINT_URL_INVALID', { details: { why } });
}
