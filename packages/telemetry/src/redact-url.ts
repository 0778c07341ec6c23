/**
 * A request URL as it may appear in logs and span attributes: the path, with the query string
 * replaced by a marker. Query strings carry what must not be stored: SSO `code` and `state`,
 * magic-link tokens sent where they are refused, anything a caller pastes. The path is kept
 * (routes never carry secrets in it); the marker says a query was there.
 */
export function redactUrl(url: string): string {
  const cut = url.search(/[?#]/);
  if (cut < 0) return url;
  return `${url.slice(0, cut)}?[redacted]`;
}

/** What Fastify's request log needs from a request (its `req` field). */
export interface LoggedRequest {
  readonly method?: string;
  readonly url?: string;
  readonly ip?: string;
  readonly host?: string;
  readonly socket?: { readonly remotePort?: number } | null;
}

/**
 * The `req` serializer of every logger: Fastify's default fields, with the URL's query redacted
 * (Fastify's own serializer logs `req.url` whole).
 */
export function requestLogSerializer(request: LoggedRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? redactUrl(request.url) : undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
