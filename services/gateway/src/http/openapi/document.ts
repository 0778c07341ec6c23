import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { closedObjects } from './closed-objects.js';
import { rateLimitHeaders } from './error-bodies.js';
import { errorResponses } from './error-responses.js';
import { OPERATIONS, operationKey, type OperationDoc } from './operations.js';
import { TAGS } from './tags.js';
import { PARAMETER_EXAMPLES, REQUEST_EXAMPLES } from './request-examples.js';

/** The spec's scopes ("OAuth 2.0 client credentials"). */
const SCOPES = {
  'products:read': 'read products and product versions',
  'products:write': 'create, update, delete products',
  'connections:read': 'read connections and shared data',
  'connections:write': 'manage connections',
  'imports:write': 'bulk import operations',
  'traceability:read': 'read traceability and supply chain data',
  'dpp:read': 'read Digital Product Passports',
};

const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'An ES256 access token from /auth/login or /oauth/token (15 minutes)',
  },
  clientCredentials: {
    type: 'oauth2',
    description: 'OAuth 2.0 client credentials, form-encoded at /api/v1/oauth/token',
    flows: { clientCredentials: { tokenUrl: '/api/v1/oauth/token', scopes: SCOPES } },
  },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'svc_session',
    description: 'The browser session set by /auth/v2 (HttpOnly)',
  },
  csrfToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-Token',
    description: 'Double-submit copy of the svc_csrf cookie, on state-changing requests with sessionCookie',
  },
} as const;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function securityOf(doc: OperationDoc, method: string): object[] {
  if (doc.access === 'public') return [];
  const cookie = SAFE_METHODS.has(method) ? { sessionCookie: [] } : { sessionCookie: [], csrfToken: [] };
  return [{ bearerAuth: [] }, { clientCredentials: [] }, cookie];
}

/** `POST /oauth/token` parses its form itself (RFC 6749 §4.4.2); the document says what it reads. */
const tokenRequestFields: Record<string, Record<string, unknown>> = {
  grant_type: { const: 'client_credentials' },
  client_id: { type: 'string', description: 'Or HTTP Basic credentials' },
  client_secret: { type: 'string' },
  scope: { type: 'string', description: 'Space-separated scope names' },
};
const tokenExample = REQUEST_EXAMPLES['POST /api/v1/oauth/token'] ?? {};
/**
 * Each field carries its value from the request example too: the reference page shows a form
 * body field by field, and would otherwise show no example for this operation.
 */
const tokenRequestBody = {
  type: 'object',
  required: ['grant_type'],
  properties: Object.fromEntries(
    Object.entries(tokenRequestFields).map(([name, field]) => [
      name,
      name in tokenExample ? { ...field, examples: [tokenExample[name]] } : field,
    ]),
  ),
};

/**
 * Metered answers carry the window's X-RateLimit-* headers on success too (client-credentials
 * traffic under the tier quota, the authentication endpoints under theirs).
 */
function withRateLimitHeaders(responses: Record<string, object>, metered: boolean): Record<string, object> {
  if (!metered) return responses;
  return Object.fromEntries(
    Object.entries(responses).map(([status, schema]) => [
      status,
      status.startsWith('2') ? { ...schema, headers: rateLimitHeaders } : schema,
    ]),
  );
}

/**
 * The route's `params` and `querystring` schemas with PARAMETER_EXAMPLES' values as `examples`
 * (@fastify/swagger turns a single one into the parameter's `example`); a property that has
 * examples of its own keeps them.
 */
function withParameterExamples(base: Record<string, unknown>, key: string): Record<string, unknown> {
  const values = PARAMETER_EXAMPLES[key];
  if (!values) return {};
  const parts: Record<string, unknown> = {};
  for (const part of ['params', 'querystring'] as const) {
    const schema = base[part] as { properties?: Record<string, Record<string, unknown>> } | undefined;
    if (!schema?.properties) continue;
    const properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => {
        const value = values[name];
        return [
          name,
          value === undefined || property['examples'] ? property : { ...property, examples: [value] },
        ];
      }),
    );
    parts[part] = { ...schema, properties };
  }
  return parts;
}

interface RouteLike {
  readonly method: string | readonly string[];
}

/** The document's one server: every path is relative to it, as the interface's base URL is. */
export const API_SERVER_URL = '/api/v1';

/** A route's path as the document writes it: relative to API_SERVER_URL. */
export function documentPath(url: string): string {
  return url.startsWith(`${API_SERVER_URL}/`) ? url.slice(API_SERVER_URL.length) : url;
}

/**
 * Adds what Fastify's schemas do not carry to one route's operation: id, tag, summary,
 * security, and a response for every error status it can answer, in the body its error edge
 * uses. A route without a declaration is left as Fastify describes it (the test catches it).
 */
export function transformRoute({ schema, url, route }: { schema: unknown; url: string; route: RouteLike }): {
  schema: Record<string, unknown>;
  url: string;
} {
  const method = typeof route.method === 'string' ? route.method : (route.method[0] ?? 'GET');
  const base = (schema ?? {}) as Record<string, unknown>;
  // The probes (/healthz, /readyz) live outside the API's base URL: the operator's, not the API's.
  if (!url.startsWith(`${API_SERVER_URL}/`)) return { schema: { ...base, hide: true }, url };
  const doc = OPERATIONS[operationKey(method, documentPath(url))];
  if (!doc) return { schema: base, url: documentPath(url) };
  const success = withRateLimitHeaders(
    { ...(closedObjects(base['response'] ?? {}) as Record<string, object>), ...(doc.extraResponses ?? {}) },
    doc.errors.includes(429),
  );
  const example = REQUEST_EXAMPLES[operationKey(method, url)];
  const body = url.endsWith('/oauth/token') && !base['body'] ? tokenRequestBody : base['body'];
  const extraBody = body
    ? {
        body: example ? { ...body, examples: [example] } : body,
        ...(url.endsWith('/oauth/token') ? { consumes: ['application/x-www-form-urlencoded'] } : {}),
      }
    : {};
  return {
    url: documentPath(url),
    schema: {
      ...base,
      ...withParameterExamples(base, operationKey(method, url)),
      ...extraBody,
      operationId: doc.operationId,
      tags: [doc.tag],
      summary: doc.summary,
      security: securityOf(doc, method),
      response: {
        ...success,
        ...errorResponses(doc.style, doc.errors),
      },
    },
  };
}

/** @fastify/swagger's options: OpenAPI 3.1.0 over the routes' own schemas. */
export function openApiOptions(version: string): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tenant access, adoption and entitlement API',
        version,
        description:
          'Paths are relative to the server URL `/api/v1`. Errors: `{ success: false, error: { code, message, details? } }`; ' +
          'token endpoints answer `{ error, error_description }`; rate limits `{ error: "RATE_LIMIT_EXCEEDED", message, retryAfter }` with Retry-After.',
      },
      servers: [{ url: API_SERVER_URL, description: 'This gateway' }],
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: transformRoute,
  };
}
