import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { toV2HttpError } from '../browser/v2-errors.js';
import type { HttpError } from '../errors/http-error.js';
import { toHttpError, toOAuthHttpError } from '../errors/map-error.js';
import { sendHttpError } from '../errors/send-http-error.js';
import { routeNotFound } from './unmatched-routes.js';

/**
 * Which of the spec's error bodies a route answers in: `general` (`{ success: false, error }`,
 * the default), `oauth` (the token endpoints, RFC 6749 `{ error, error_description }`) or `v2`
 * (the cookie surface: general, with identity's reason on a failed sign-in and the rate-limit
 * body). A route group states it once (`useOAuthErrors`, `useV2Errors`).
 */
export type ErrorStyle = 'general' | 'oauth' | 'v2';

declare module 'fastify' {
  interface FastifyContextConfig {
    errorStyle?: ErrorStyle;
  }
}

const MAPPINGS: Readonly<Record<ErrorStyle, (error: unknown) => HttpError>> = {
  general: toHttpError,
  oauth: toOAuthHttpError,
  v2: toV2HttpError,
};

/** Makes every route registered after this call in `app`'s scope answer errors in `style`. */
export function useErrorStyle(app: FastifyInstance, style: ErrorStyle): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, errorStyle: style };
  });
}

function logRefusal(request: FastifyRequest, error: unknown, mapped: HttpError): void {
  if (mapped.status === 503)
    request.log.warn({ err: (error as Error).message }, 'a dependency is unavailable');
  else if (mapped.status >= 500) request.log.error({ err: error }, 'request failed');
  else {
    const { reason, code } = error as { reason?: string; code?: string };
    request.log.info({ status: mapped.status, code: reason ?? code }, 'request refused');
  }
}

/**
 * The gateway's single error handler: everything thrown by a route, a hook, body parsing or a
 * downstream service becomes the spec's status and body here, in the route's error style.
 * Messages below 500 are the callee's user-facing text; 500s say nothing about the cause (it
 * goes to the log).
 */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const mapped = MAPPINGS[request.routeOptions.config?.errorStyle ?? 'general'](error);
    logRefusal(request, error, mapped);
    return sendHttpError(reply, mapped);
  });
  // buildApp answers unmatched requests before their body is read (unmatched-routes.ts); this
  // answers a route's own `callNotFound()`, such as a missing console asset.
  app.setNotFoundHandler(async (request, reply) => sendHttpError(reply, routeNotFound(request)));
});
