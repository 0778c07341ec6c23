import { contracts } from '@tap/contracts';
import { createGrpcServer, type GrpcServer } from '@tap/grpc-kit';
import type { Logger } from '@tap/telemetry';
import type { TokenVerifier } from '@tap/tokens';
import type { Db } from 'mongodb';
import type { EntitlementsConfig } from './config.js';
import { entitlementsHandlers } from './grpc/entitlements-handlers.js';
import { tierAssignmentsRepository } from './store/tier-assignments-repository.js';

export interface EntitlementsDeps {
  readonly config: Pick<EntitlementsConfig, 'operatorToken'>;
  readonly db: Db;
  readonly verifier: TokenVerifier;
  readonly logger: Logger;
  readonly now?: () => Date;
}

export interface EntitlementsApp {
  readonly grpc: GrpcServer;
  prepare(): Promise<void>;
}

/** Builds the entitlements service without listening. */
export function buildApp(deps: EntitlementsDeps): EntitlementsApp {
  const handlers = entitlementsHandlers({
    assignments: tierAssignmentsRepository(deps.db),
    verifier: deps.verifier,
    operatorToken: deps.config.operatorToken,
    logger: deps.logger,
    now: deps.now ?? (() => new Date()),
  });
  const grpc = createGrpcServer([
    {
      name: 'tap.entitlements.v1.EntitlementsService',
      definition: contracts().entitlements.EntitlementsService.service,
      implementation: handlers,
    },
  ]);
  return { grpc, prepare: async () => undefined };
}
