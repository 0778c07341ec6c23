import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The attributes of every cookie the gateway sets, in our words; `@fastify/cookie` (registered
 * once in app.ts) parses the `Cookie` header and writes the `Set-Cookie` values. Every cookie is
 * `Secure`: sessions only travel over TLS.
 */
export interface CookieAttributes {
  readonly httpOnly: boolean;
  readonly sameSite: 'strict' | 'lax';
  readonly path: string;
  /** Seconds; 0 deletes the cookie. */
  readonly maxAge: number;
  readonly domain?: string | undefined;
}

/** Sets (or, with `maxAge` 0, deletes) one cookie on the reply. */
export function setCookie(
  reply: FastifyReply,
  name: string,
  value: string,
  attributes: CookieAttributes,
): void {
  const { domain, maxAge, ...rest } = attributes;
  const deleting = maxAge <= 0;
  void reply.setCookie(name, value, {
    ...rest,
    ...(domain ? { domain } : {}),
    secure: true,
    maxAge: Math.max(0, Math.floor(maxAge)),
    // An old browser that ignores Max-Age still drops the cookie.
    ...(deleting ? { expires: new Date(0) } : {}),
  });
}

/** The request's cookies (first of duplicate names), as `@fastify/cookie` parsed them. */
export function requestCookies(request: FastifyRequest): ReadonlyMap<string, string> {
  const cookies = new Map<string, string>();
  for (const [name, value] of Object.entries(request.cookies ?? {}))
    if (typeof value === 'string') cookies.set(name, value);
  return cookies;
}
