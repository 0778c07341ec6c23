import type { EventPage__Output } from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { anyToken } from '../auth/access.js';
import { callerOf } from '../auth/caller.js';
import { ok } from '../envelope.js';
import { gatewayError, rateLimitExceeded } from '../errors/catalogue.js';
import { sendHttpError } from '../errors/send-http-error.js';
import { operation, registerRoutes, routesOf } from './define-route.js';
import { serveEventStream, type EventStreams, type StreamPage } from './event-stream.js';
import { EventsQuery, eventsResponse, type EventJson } from './notifications-schemas.js';

/** What a client at the cap is told to wait: about one poll of a stream that ends meanwhile. */
const STREAM_CAP_RETRY_AFTER_S = 5;
/** The shape of a cursor this API issues (base64url); anything else in Last-Event-ID is a 400. */
const CURSOR = /^[A-Za-z0-9_-]{1,64}$/;

export interface EventsFeedDeps {
  readonly clients: ServiceClients;
  readonly streams: EventStreams;
}

const route = routesOf<EventsFeedDeps>();

/**
 * `GET /tenant/events`: the tenant's outbound events after a cursor, oldest first, kept 30 days.
 * JSON pages by default; with `Accept: text/event-stream` the same feed as server-sent events,
 * resumed after the `Last-Event-ID` a client sends back (it wins over `after`), with heartbeats,
 * at most `perTenant` open streams per tenant on this process (429 beyond). Any token of the
 * tenant: members watch their journey, integrators poll with client credentials.
 */
export const EVENTS_FEED_ROUTES = [
  route('GET /tenant/events', {
    schema: { querystring: EventsQuery, response: eventsResponse },
    access: anyToken("the tenant's own events: members watch their journey, integrators poll"),
    operation: operation(
      'notifications',
      'listEvents',
      "The tenant's events after a cursor, oldest first, kept 30 days; server-sent events with Accept: text/event-stream (429 over the open-stream cap)",
    ),
    handler:
      ({ clients, streams }) =>
      async (request, reply) => {
        const { notifications } = clients;
        const { claims, authorization } = callerOf(request);
        const types = request.query.types?.split(',') ?? [];
        const limit = Number(request.query.limit ?? 0);
        const read = async (after: string, pageLimit = limit): Promise<EventPage__Output> =>
          unaryCall(notifications, 'ListEvents', { after, types, limit: pageLimit }, { authorization });

        if (!wantsStream(request)) {
          const page = await read(request.query.after ?? '');
          return ok({
            events: page.eventsJson.map((json) => JSON.parse(json) as EventJson),
            nextCursor: page.nextCursor || null,
          });
        }
        const lastEventId = request.headers['last-event-id'];
        if (lastEventId !== undefined && (typeof lastEventId !== 'string' || !CURSOR.test(lastEventId)))
          return sendHttpError(
            reply,
            gatewayError('VALIDATION_FAILED', {
              details: [{ path: '/headers/last-event-id', message: 'must be an id this stream sent' }],
            }),
          );
        if (!streams.open(claims.tenantId))
          return sendHttpError(
            reply,
            rateLimitExceeded(
              `This tenant already holds ${streams.settings.perTenant} open event streams; close one or poll the JSON feed`,
              STREAM_CAP_RETRY_AFTER_S,
            ),
          );
        let first: StreamPage;
        try {
          // Read before the stream starts: a bad cursor or a refused token is still a plain 4xx.
          first = streamPage(await read(lastEventId ?? request.query.after ?? '', 0));
        } catch (error) {
          streams.release(claims.tenantId);
          throw error;
        }
        serveEventStream(request, reply, streams, {
          first,
          read: async (cursor) => streamPage(await read(cursor, 0)),
          done: () => streams.release(claims.tenantId),
        });
        return reply;
      },
  }),
] as const;

/** Registers EVENTS_FEED_ROUTES; a draining process ends its streams first, so that it can close. */
export async function eventsFeedRoutes(app: FastifyInstance, deps: EventsFeedDeps): Promise<void> {
  app.addHook('preClose', (done) => {
    deps.streams.endAll();
    done();
  });
  registerRoutes(app, EVENTS_FEED_ROUTES, deps);
}

function streamPage(page: EventPage__Output): StreamPage {
  return { events: page.eventsJson, cursors: page.cursors, nextCursor: page.nextCursor };
}

/** A stream is asked for with `Accept: text/event-stream` on a GET (a HEAD gets the JSON headers). */
function wantsStream(request: FastifyRequest): boolean {
  return request.method === 'GET' && (request.headers.accept ?? '').includes('text/event-stream');
}
