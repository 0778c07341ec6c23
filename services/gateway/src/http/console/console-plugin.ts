import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Where the console lives on this origin (apps/console is built with Vite's `base` = this). */
export const CONSOLE_PATH = '/console';

/**
 * The gateway's own redirects land on these pages of the web app (docs/browser-sessions.md):
 * the magic-link mail (`MAGIC_LINK_URL`) and the SSO outcomes (`{APP_URL}/auth/sso/…`). With
 * `APP_URL` the gateway's origin they are the console's too.
 */
export const CONSOLE_LANDINGS = [
  '/auth/magic-link',
  '/auth/sso/confirm-email',
  '/auth/sso/pending-approval',
  '/auth/sso/error',
] as const;

/**
 * Strict: only this origin's script, style and API; no inline script or style element, no
 * framing, no plugin, no <base>. The console is built for it (no inline code in index.html).
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function secureHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CONSOLE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin')
    .header('cross-origin-opener-policy', 'same-origin');
}

/**
 * Serves the built single-page console (apps/console/dist) on the API's origin, so the session
 * cookies, CSRF and Origin rules of /auth/v2 hold as specified. Outside /api/v1: not in the
 * route table or the OpenAPI document (the pages are not API). The hashed assets are cached for
 * a year; the page itself is never cached (it names the current assets). A directory without a
 * build serves nothing, and says so once.
 */
export async function consolePlugin(app: FastifyInstance, options: { root: string }): Promise<void> {
  if (!existsSync(join(options.root, 'index.html'))) {
    app.log.warn({ root: options.root }, 'console not built (npm run build): /console/ is not served');
    return;
  }
  await app.register(fastifyStatic, {
    root: join(options.root, 'assets'),
    prefix: `${CONSOLE_PATH}/assets/`,
    decorateReply: false,
    index: false,
    dotfiles: 'deny',
    immutable: true,
    maxAge: '365d',
    setHeaders: (reply) => {
      void reply.header('content-security-policy', CONSOLE_CSP).header('x-content-type-options', 'nosniff');
    },
  });
  await app.register(async (pages) => {
    await pages.register(fastifyStatic, { root: options.root, serve: false, decorateReply: true });
    const page = async (_request: unknown, reply: FastifyReply) =>
      secureHeaders(reply)
        .header('cache-control', 'no-store')
        .sendFile('index.html', { cacheControl: false });
    const hidden = { schema: { hide: true }, config: { otel: false } };
    const toConsole = async (_request: unknown, reply: FastifyReply) =>
      reply.redirect(`${CONSOLE_PATH}/`, 302);
    // The origin's root opens the console: a newcomer types localhost:3000, not its path. Only
    // where there is a console to land on; without one `/` stays the JSON 404.
    pages.get('/', hidden, toConsole);
    pages.get(CONSOLE_PATH, hidden, toConsole);
    // Every console path is a page of the app (client-side routing); assets are matched first.
    pages.get(`${CONSOLE_PATH}/*`, hidden, page);
    for (const landing of CONSOLE_LANDINGS) pages.get(landing, hidden, page);
  });
}
