import { CookieJar } from './cookie-jar.js';
import { SYSTEM_ORIGIN } from './system.js';

/** One request as it left the client (after the client added its credentials). */
export interface SentRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Headers;
  readonly body: string;
}

/**
 * The real network (global fetch) with a record of what @tap/client sent: tests count token
 * requests, refreshes and retries on it. Nothing is answered here; every answer is the server's.
 */
export function recordingTransport(forwardedFor?: string): {
  sent: SentRequest[];
  fetch: (request: Request) => Promise<Response>;
} {
  const sent: SentRequest[] = [];
  return {
    sent,
    async fetch(request) {
      if (forwardedFor) request.headers.set('x-forwarded-for', forwardedFor);
      sent.push({
        method: request.method,
        path: new URL(request.url).pathname,
        headers: new Headers(request.headers),
        body: await request.clone().text(),
      });
      return fetch(request, { signal: AbortSignal.timeout(10_000) });
    },
  };
}

/**
 * What a browser on the allowlisted origin adds to the client's requests: its Origin, its
 * cookies (stored from every answer), its address. `document.cookie` is the jar's `svc_csrf`.
 */
export function browserTransport(forwardedFor: string): {
  jar: CookieJar;
  sent: SentRequest[];
  fetch: (request: Request) => Promise<Response>;
  csrfToken: () => string | undefined;
} {
  const jar = new CookieJar();
  const recording = recordingTransport(forwardedFor);
  return {
    jar,
    sent: recording.sent,
    csrfToken: () => jar.get('svc_csrf')?.value,
    async fetch(request) {
      request.headers.set('origin', SYSTEM_ORIGIN);
      const cookie = jar.header(new URL(request.url).pathname);
      if (cookie) request.headers.set('cookie', cookie);
      const response = await recording.fetch(request);
      jar.store(response.headers);
      return response;
    },
  };
}
