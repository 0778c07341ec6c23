import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifyReply,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import { RouteTableError, type RouteAccess } from '../auth/access.js';
import type { ErrorStatus, ErrorStyle } from '../openapi/error-responses.js';
import type { Tag } from '../openapi/tags.js';

/** The methods our routes are declared with; HEAD follows GET (Fastify's `exposeHeadRoutes`). */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

type TypedRoute<S extends FastifySchema> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  TypeBoxTypeProvider
>;

/**
 * A handler whose request and reply types come from the route's TypeBox schemas: it returns
 * the answer (checked against the response schema), or sends it itself and returns the reply.
 */
export type TypedHandler<S extends FastifySchema> =
  TypedRoute<S> | ((...args: Parameters<TypedRoute<S>>) => Promise<FastifyReply>);

/**
 * What the OpenAPI document says about a route beyond its schemas. `errors` are the statuses
 * the route's own checks and the service it calls can answer; the ones every route of its kind
 * answers (a malformed request or ambiguous credentials, authentication, a body's size and
 * type, the tier quota, a dependency away) are added from the declaration itself
 * (openapi/operations.ts).
 */
export interface RouteOperation {
  readonly operationId: string;
  readonly tag: Tag;
  readonly summary: string;
  /** Which error edge answers it, and so which body each status carries; `api` unless said. */
  readonly errorStyle?: ErrorStyle;
  readonly errors?: readonly ErrorStatus[];
  /** Answers with no JSON schema in the route (204, 302, bodies Fastify does not serialise). */
  readonly extraResponses?: Readonly<Record<string, object>>;
}

/** A route left out of the document, with the reason. */
export interface HiddenOperation {
  readonly hidden: string;
}

/** A route's key: `METHOD /path` under /api/v1, with Fastify's `:param` syntax. */
export type RouteKeyOf = `${HttpMethod} /${string}`;

/**
 * One endpoint, declared once under its key (`METHOD /path` under /api/v1): its schemas, who
 * may call it (`access`, required: a declaration without one does not type-check), what the
 * document says of it, and its handler, built from the group's dependencies when the group
 * registers. The route table (auth/route-table.ts) and the document's operations
 * (openapi/operations.ts) are built from the same declarations (routes/all-routes.ts).
 */
export interface RouteDeclaration<Deps, S extends FastifySchema> {
  readonly schema?: S;
  readonly access: RouteAccess;
  readonly operation: RouteOperation | HiddenOperation;
  /** Route options that depend on the group's configuration (the SSO routes' provider keys). */
  readonly options?: (deps: Deps) => ConfiguredOptions;
  readonly handler: (deps: Deps) => TypedHandler<S>;
}

/** What a route may take from its group's configuration at registration. */
export interface ConfiguredOptions {
  readonly schema?: FastifySchema;
  /** The handler judges a schema miss itself (`request.validationError`). */
  readonly attachValidation?: boolean;
}

/** A declaration as the registrar and the tables see it: its schema types no longer needed. */
export interface Route<Deps = never, K extends RouteKeyOf = RouteKeyOf> {
  readonly key: K;
  readonly method: HttpMethod;
  readonly url: string;
  readonly schema?: FastifySchema;
  readonly access: RouteAccess;
  readonly operation: RouteOperation | HiddenOperation;
  readonly options?: (deps: Deps) => ConfiguredOptions;
  readonly handler: (deps: Deps) => RouteHandlerMethod;
}

/**
 * `defineRoute` for a group of routes that share `Deps` (what their handlers are built from):
 * `const route = routesOf<AdoptionDeps>()`, then `route('GET /tenant/adoption/state', { ... })`.
 */
export function routesOf<Deps>() {
  return <K extends RouteKeyOf, S extends FastifySchema = FastifySchema>(
    key: K,
    declaration: RouteDeclaration<Deps, S>,
  ): Route<Deps, K> => {
    const space = key.indexOf(' ');
    const method = key.slice(0, space) as HttpMethod;
    // The schema's types served the handler's; Fastify checks the schemas themselves at run time.
    const erased = declaration as unknown as Omit<Route<Deps, K>, 'key' | 'method' | 'url'>;
    return { ...erased, key, method, url: key.slice(space + 1) };
  };
}

/**
 * What the document says of a route: its id, tag and summary, the statuses its own checks and
 * its service answer (beyond every route's, openapi/operations.ts), and answers with no schema.
 */
export const operation = (
  tag: Tag,
  operationId: string,
  summary: string,
  errors: readonly ErrorStatus[] = [],
  extraResponses?: RouteOperation['extraResponses'],
): RouteOperation => ({ operationId, tag, summary, errors, ...(extraResponses ? { extraResponses } : {}) });

/** Whether a declaration is left out of the document. */
export const isHidden = (operation: RouteOperation | HiddenOperation): operation is HiddenOperation =>
  'hidden' in operation;

/**
 * Registers a group's declarations in `app` (the /api/v1 scope or a plugin inside it). A
 * declaration without an access decision (only possible by casting) stops the gateway from
 * building, as a route missing from the table does (plugins/api-authentication.ts).
 */
export function registerRoutes<Deps>(app: FastifyInstance, routes: readonly Route<Deps>[], deps: Deps): void {
  for (const route of routes) {
    if (route.access?.access !== 'public' && route.access?.access !== 'token') {
      throw new RouteTableError(
        'ROUTE_WITHOUT_REQUIREMENT',
        `${route.method} ${route.url} is declared without an access decision`,
      );
    }
    const configured = route.options?.(deps) ?? {};
    const schema = { ...configured.schema, ...route.schema };
    app.route({
      method: route.method,
      url: route.url,
      schema: isHidden(route.operation) ? { ...schema, hide: true } : schema,
      ...(configured.attachValidation === undefined ? {} : { attachValidation: configured.attachValidation }),
      handler: route.handler(deps),
    });
  }
}
