import type { Metadata } from '@grpc/grpc-js';
import { bearerFromMetadata, type HandlerLogger, currentRequestId } from '@tap/grpc-kit';
import { authenticate } from '@tap/service-auth';
import type { TokenVerifier } from '@tap/tokens';
import type { Caller } from '../operations/caller.js';
import type { CompleteMilestoneDeps } from '../operations/complete-milestone.js';
import type { SuccessPlanDeps } from '../operations/create-success-plan.js';
import type { NextBestActionDeps } from '../operations/get-next-best-action.js';

/** Everything the adoption.v1 handlers use. */
export interface AdoptionHandlerDeps extends CompleteMilestoneDeps, SuccessPlanDeps, NextBestActionDeps {
  readonly verifier: TokenVerifier;
  readonly logger: HandlerLogger & CompleteMilestoneDeps['logger'];
}

/** The verified caller: the tenant always comes from the token, never from the request. */
export async function callerOf(metadata: Metadata, verifier: TokenVerifier): Promise<Caller> {
  const claims = await authenticate(metadata, verifier);
  const requestId = currentRequestId();
  return {
    claims,
    authorization: `Bearer ${bearerFromMetadata(metadata) ?? ''}`,
    ...(requestId === undefined ? {} : { requestId }),
  };
}
