import { nextAttemptAt, shouldDisable, signedContent, webhookHeaders } from '../domain/index.js';
import type {
  AttemptsRepository,
  DeliveriesRepository,
  Delivery,
  EndpointsRepository,
  SecretKeeper,
  WebhookSender,
} from './ports.js';

export interface DeliverOneDeps {
  readonly endpoints: EndpointsRepository;
  readonly deliveries: DeliveriesRepository;
  readonly attempts: AttemptsRepository;
  readonly secrets: SecretKeeper;
  readonly sender: WebhookSender;
  readonly retryScheduleMs: readonly number[];
  readonly disableAfterFailingMs: number;
  /** Told once when an endpoint is disabled for failing (audit entry, e-mail to the owners). */
  readonly endpointDisabled: (endpointId: string, tenantId: string) => Promise<void>;
  readonly now: () => Date;
}

/** What one attempt came to. */
export type AttemptResult = 'DELIVERED' | 'RETRY' | 'FAILED' | 'DROPPED';

/**
 * One attempt of a claimed delivery: signs with every secret in force, sends, logs the attempt,
 * then marks the delivery delivered (2xx), due again on the schedule, or failed for good. An
 * endpoint deleted or disabled since the event arrived drops the delivery.
 */
export async function deliverOne(deps: DeliverOneDeps, delivery: Delivery): Promise<AttemptResult> {
  const endpoint = await deps.endpoints.find(delivery.tenantId, delivery.endpointId);
  const started = deps.now();
  if (!endpoint || !endpoint.enabled) {
    await deps.deliveries.recordOutcome(
      delivery.id,
      { ...outcomeBase(delivery), status: 'FAILED', nextAttemptAt: null, lastError: 'ENDPOINT_DISABLED' },
      started,
    );
    return 'DROPPED';
  }
  const timestamp = Math.floor(started.getTime() / 1000);
  const content = signedContent(delivery.eventId, timestamp, delivery.body);
  const signatures = endpoint.secrets
    .filter((s) => s.expiresAt === null || s.expiresAt > started)
    .map((s) => deps.secrets.sign(deps.secrets.open(s.sealed), content));
  const outcome = await deps.sender.send(
    endpoint.url,
    webhookHeaders(delivery.eventId, timestamp, signatures),
    delivery.body,
  );
  const finished = deps.now();
  const attempt = delivery.attempts + 1;
  const succeeded = outcome.ok && outcome.status >= 200 && outcome.status < 300;
  const next = succeeded ? null : nextAttemptAt(finished, attempt, deps.retryScheduleMs);
  const status = outcome.ok ? outcome.status : null;
  const error = outcome.ok ? (succeeded ? null : `HTTP_${outcome.status}`) : outcome.error;
  await deps.attempts.append({
    deliveryId: delivery.id,
    tenantId: delivery.tenantId,
    endpointId: delivery.endpointId,
    attempt,
    at: started,
    status,
    error,
    latencyMs: finished.getTime() - started.getTime(),
    nextAttemptAt: next,
  });
  await deps.deliveries.recordOutcome(
    delivery.id,
    {
      status: succeeded ? 'DELIVERED' : next ? 'PENDING' : 'FAILED',
      attempts: attempt,
      nextAttemptAt: next,
      lastStatus: status,
      lastError: error,
    },
    finished,
  );
  if (succeeded) {
    if (endpoint.failingSince) await deps.endpoints.markHealthy(endpoint.tenantId, endpoint.id);
    return 'DELIVERED';
  }
  await deps.endpoints.markFailing(endpoint.tenantId, endpoint.id, started);
  if (shouldDisable(endpoint.failingSince, finished, deps.disableAfterFailingMs)) {
    await deps.endpoints.disable(endpoint.tenantId, endpoint.id, 'FAILING', finished);
    await deps.endpointDisabled(endpoint.id, endpoint.tenantId);
  }
  return next ? 'RETRY' : 'FAILED';
}

function outcomeBase(delivery: Delivery) {
  return { attempts: delivery.attempts, lastStatus: delivery.lastStatus, lastError: delivery.lastError };
}
