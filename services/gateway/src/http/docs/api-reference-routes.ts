import type { FastifyInstance, FastifyReply } from 'fastify';
import { open } from '../auth/access.js';
import { registerRoutes, routesOf } from '../routes/define-route.js';
import { referenceAssets } from './reference-assets.js';
import { referencePage } from './reference-page.js';

/**
 * Scoped to the reference page and its files only (this plugin is encapsulated): everything from
 * our origin, no inline script or style, no framing, nothing to other origins. The renderer
 * fetches the document and "Try it out" calls our own API (connect-src 'self').
 */
export const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', REFERENCE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-resource-policy', 'same-origin')
    .header('x-frame-options', 'DENY');
}

export interface ReferenceDeps {
  readonly assets: Awaited<ReturnType<typeof referenceAssets>>;
  readonly page: string;
}
const route = routesOf<ReferenceDeps>();
const ABOUT_THE_API = 'the page is about the API, not part of it';

/**
 * `GET /docs`: the API reference rendered by Swagger UI from `GET /openapi.json` of the same
 * scope, its files under `/docs/assets/` (swagger-ui-dist, installed with the gateway: no CDN).
 * Both are hidden from the document.
 */
export const API_REFERENCE_ROUTES = [
  route('GET /docs', {
    access: open('the API reference page rendered from /openapi.json; no tenant data'),
    operation: { hidden: ABOUT_THE_API },
    handler:
      ({ page }) =>
      async (_request, reply) =>
        secure(reply).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page),
  }),
  route('GET /docs/assets/:file', {
    access: open("the reference page's own scripts and styles (a fixed list)"),
    operation: { hidden: ABOUT_THE_API },
    handler:
      ({ assets }) =>
      async (request, reply) => {
        const asset = assets.get((request.params as { file: string }).file);
        if (!asset) return reply.callNotFound();
        // Names carry no version: an hour, then the browser asks again.
        return secure(reply)
          .header('cache-control', 'public, max-age=3600')
          .type(asset.contentType)
          .send(asset.body);
      },
  }),
] as const;

/** Registers API_REFERENCE_ROUTES with the page and its files. */
export async function apiReferenceRoutes(app: FastifyInstance): Promise<void> {
  const assets = await referenceAssets();
  const page = referencePage({
    assetsUrl: `${app.prefix}/docs/assets`,
    specUrl: `${app.prefix}/openapi.json`,
  });
  registerRoutes(app, API_REFERENCE_ROUTES, { assets, page });
}
