import { randomUUID } from 'node:crypto';
import { contracts, type EntitlementsServiceClient, type ProductEvent } from '@tap/contracts';
import { ensureEventStream, startDurableConsumer, type DurableConsumer } from '@tap/events';
import { createGrpcServer, unaryCall, type GrpcServer } from '@tap/grpc-kit';
import type { Logger } from '@tap/telemetry';
import type { TokenVerifier } from '@tap/tokens';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import type { Db } from 'mongodb';
import type { AdoptionConfig } from './config.js';
import type { PathProfile } from './domain/index.js';
import { productEventHandler } from './events/product-event-handler.js';
import { adoptionHandlers } from './grpc/adoption-handlers.js';
import { aggregatesRepository } from './store/aggregates-repository.js';
import type { TierLookup } from './tenant-state.js';

export interface AdoptionDeps {
  readonly config: Pick<AdoptionConfig, 'events'>;
  readonly db: Db;
  readonly verifier: TokenVerifier;
  readonly entitlements: EntitlementsServiceClient;
  /** Publishes an event on the bus (adoption emits milestone.completed). */
  readonly publish: (event: ProductEvent) => Promise<unknown>;
  readonly logger: Logger;
  readonly now?: () => Date;
  readonly newId?: () => string;
}

export interface AdoptionApp {
  readonly grpc: GrpcServer;
  /** Ensures the event stream and starts the durable milestone detector on `nc`. */
  startConsumer(nc: NatsConnection): Promise<DurableConsumer>;
}

/** Builds the adoption service without listening or consuming. */
export function buildApp(deps: AdoptionDeps): AdoptionApp {
  const now = deps.now ?? (() => new Date());
  const aggregates = aggregatesRepository(deps.db);
  const tierOf: TierLookup = async (authorization) => {
    const tier = await unaryCall(deps.entitlements, 'GetTier', {}, { authorization });
    return { pathProfile: tier.pathProfile as PathProfile, capabilities: tier.capabilities };
  };
  const handlers = adoptionHandlers({
    aggregates,
    verifier: deps.verifier,
    tierOf,
    publish: deps.publish,
    logger: deps.logger,
    now,
    newId: deps.newId ?? randomUUID,
  });
  const grpc = createGrpcServer([
    { name: 'tap.adoption.v1.AdoptionService', definition: contracts().adoption.AdoptionService.service, implementation: handlers },
  ]);
  const logger = deps.logger.child({ component: 'milestone-detector' });
  return {
    grpc,
    async startConsumer(nc) {
      const { streamName, subjectPrefix, consumerName, duplicateWindowMs } = deps.config.events;
      const jsm = await jetstreamManager(nc);
      await ensureEventStream(jsm, { streamName, subjectPrefix, duplicateWindowMs });
      return startDurableConsumer(jetstream(nc), jsm, {
        streamName,
        durableName: consumerName,
        subjectPrefix,
        handler: productEventHandler({ aggregates, logger, now }),
        onInvalid: (report) => logger.warn({ ...report }, 'invalid event recorded and acknowledged'),
        onError: (error, report) => logger.warn({ err: error, ...report }, 'event handling failed'),
      });
    },
  };
}
