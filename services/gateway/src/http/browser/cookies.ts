/**
 * A small cookie reader and `Set-Cookie` writer (RFC 6265). Our own rather than a package: the
 * gateway runs in-process under jest's ESM runtime in the system tests, and the values we set
 * are all base64url/JWT characters, so no encoding is needed.
 */

const NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const VALUE = /^[!#-+\--:<-[\]-~]*$/;

/** The `Cookie` header as a map; the first of duplicate names wins, malformed pairs are skipped. */
export function parseCookies(header: string | undefined): ReadonlyMap<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    let value = pair.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!NAME.test(name) || !VALUE.test(value) || cookies.has(name)) continue;
    cookies.set(name, value);
  }
  return cookies;
}

export interface CookieAttributes {
  readonly httpOnly: boolean;
  readonly sameSite: 'Strict' | 'Lax';
  readonly path: string;
  /** Seconds; 0 deletes the cookie. */
  readonly maxAge: number;
  readonly domain?: string | undefined;
}

/** One `Set-Cookie` value; always `Secure`. Throws on a name or value that would need encoding. */
export function serializeCookie(name: string, value: string, attributes: CookieAttributes): string {
  if (!NAME.test(name) || !VALUE.test(value))
    throw new Error(`cookie ${name} has characters that need encoding`);
  const parts = [
    `${name}=${value}`,
    `Path=${attributes.path}`,
    `Max-Age=${Math.max(0, Math.floor(attributes.maxAge))}`,
  ];
  if (attributes.maxAge <= 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (attributes.domain) parts.push(`Domain=${attributes.domain}`);
  if (attributes.httpOnly) parts.push('HttpOnly');
  parts.push('Secure', `SameSite=${attributes.sameSite}`);
  return parts.join('; ');
}
