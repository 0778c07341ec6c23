import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { isProductEventKind, type ProductEvent } from '@tap/contracts';
import { createEventPublisher, ensureEventStream } from '@tap/events';
import type { CliConfig } from '../cli-config.js';

export const STREAM_DUPLICATE_WINDOW_MS = 2 * 60_000;

/** Builds a product event from CLI arguments; throws with a readable message on bad input. */
export function buildEvent(args: {
  tenant: string;
  kind: string;
  subject: string[];
  data?: string;
  id?: string;
  at?: string;
}): ProductEvent {
  if (!isProductEventKind(args.kind)) throw new Error(`unknown event kind ${args.kind}`);
  const subject: Record<string, string> = {};
  for (const pair of args.subject) {
    const [key, ...rest] = pair.split('=');
    if (!key || rest.length === 0) throw new Error(`--subject takes key=value, got ${pair}`);
    subject[key] = rest.join('=');
  }
  let data: Record<string, unknown> = {};
  if (args.data) {
    const parsed: unknown = JSON.parse(args.data);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error('--data must be a JSON object');
    data = parsed as Record<string, unknown>;
  }
  return {
    id: args.id ?? randomUUID(),
    type: args.kind,
    tenantId: args.tenant,
    occurredAt: args.at ?? new Date().toISOString(),
    subject,
    data,
  };
}

/** Publishes one event onto JetStream (creating the stream if it is not there yet). */
export async function publishEvent(config: CliConfig, event: ProductEvent) {
  const nc = await connect({ servers: config.natsUrl.split(','), name: 'tap-cli' });
  try {
    await ensureEventStream(await jetstreamManager(nc), {
      streamName: config.eventsStream,
      subjectPrefix: config.eventsSubjectPrefix,
      duplicateWindowMs: STREAM_DUPLICATE_WINDOW_MS,
    });
    return await createEventPublisher(jetstream(nc), { subjectPrefix: config.eventsSubjectPrefix }).publish(
      event,
    );
  } finally {
    await nc.drain();
  }
}
