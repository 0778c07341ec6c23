import type { Metadata } from '@grpc/grpc-js';
import { bearerFromMetadata, type HandlerLogger } from '@tap/grpc-kit';
import { authenticate } from '@tap/service-auth';
import type { TokenVerifier } from '@tap/tokens';
import type { CompleteMilestoneDeps } from '../operations/complete-milestone.js';
import type { SuccessPlan } from '../domain/index.js';
import type { PlansRepository } from '../operations/ports.js';
import type { Caller, TenantReadDeps } from '../operations/read-tenant.js';

/** Everything the adoption.v1 handlers use. */
export interface AdoptionHandlerDeps extends CompleteMilestoneDeps {
  readonly verifier: TokenVerifier;
  /** The store, for writers: a create or renewal decides against the chain as stored now. */
  readonly plans: PlansRepository;
  /** The read model of the plan chains (never older than a plan write this replica knows of). */
  readonly readPlans: (tenantId: string) => Promise<readonly SuccessPlan[]>;
  readonly logger: HandlerLogger & TenantReadDeps['logger'];
}

/** The verified caller: the tenant always comes from the token, never from the request. */
export async function callerOf(metadata: Metadata, verifier: TokenVerifier): Promise<Caller> {
  const claims = await authenticate(metadata, verifier);
  return { claims, authorization: `Bearer ${bearerFromMetadata(metadata) ?? ''}` };
}
