import type { Metadata } from '@grpc/grpc-js';
import { bearerFromMetadata, type HandlerLogger } from '@tap/grpc-kit';
import { authenticate } from '@tap/service-auth';
import type { TokenVerifier } from '@tap/tokens';
import type { SignalTransition } from '../domain/index.js';
import type { CompletionOutbox } from '../outbox/completion-outbox.js';
import type { PlansRepository } from '../operations/ports.js';
import type { Caller, TenantReadDeps } from '../tenant-state.js';

/** Compare-and-set rounds a write RPC makes before it answers VERSION_CONFLICT. */
export const MAX_RPC_WRITE_ATTEMPTS = 3;

/** Everything the adoption.v1 handlers use. */
export interface AdoptionHandlerDeps extends TenantReadDeps {
  readonly verifier: TokenVerifier;
  readonly plans: PlansRepository;
  /** Publishes milestone.completed for a manual completion, with an outbox behind it. */
  readonly outbox: CompletionOutbox;
  readonly logger: HandlerLogger & TenantReadDeps['logger'];
  readonly newId: () => string;
  /** The drift watch's rescan interval, for the due time a write stores. */
  readonly rescanMs: number;
  /** Sets when the drift watch should next look at a tenant. */
  readonly schedule: (tenantId: string, at: Date | null) => Promise<void>;
  /** Ladder moves a write caused, reported once the write has won. */
  readonly onTransitions: (tenantId: string, transitions: readonly SignalTransition[]) => void;
}

/** The verified caller: the tenant always comes from the token, never from the request. */
export async function callerOf(metadata: Metadata, verifier: TokenVerifier): Promise<Caller> {
  const claims = await authenticate(metadata, verifier);
  return { claims, authorization: `Bearer ${bearerFromMetadata(metadata) ?? ''}` };
}
