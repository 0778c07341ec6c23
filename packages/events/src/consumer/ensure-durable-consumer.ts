import { AckPolicy, DeliverPolicy, JetStreamApiError, ReplayPolicy } from '@nats-io/jetstream';
import type {
  ConsumerConfig,
  ConsumerInfo,
  ConsumerUpdateConfig,
  JetStreamManager,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import { eventErrors } from '../errors.js';

/** What startDurableConsumer asks of the server-side consumer. */
export interface DurableConsumerSpec {
  readonly streamName: string;
  readonly durableName: string;
  readonly filterSubjects: readonly string[];
  readonly maxDeliver: number;
  readonly ackWaitMs: number;
}

const CONSUMER_NOT_FOUND = 10014;

/**
 * Creates the durable pull consumer (explicit ack, from the first message of the stream), or
 * brings an existing one's ack wait, max deliveries and filter to `spec`. Several replicas may
 * run it at once: the server treats a create with an identical configuration as a no-op.
 */
export async function ensureDurableConsumer(
  jsm: JetStreamManager,
  spec: DurableConsumerSpec,
): Promise<ConsumerInfo> {
  const changeable = changeableConfig(spec);
  try {
    const existing = await infoOrUndefined(jsm, spec);
    if (!existing) {
      return await jsm.consumers.add(spec.streamName, {
        durable_name: spec.durableName,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        replay_policy: ReplayPolicy.Instant,
        ...changeable,
      } satisfies Partial<ConsumerConfig>);
    }
    const current = existing.config;
    if (current.ack_policy !== AckPolicy.Explicit || current.deliver_subject) {
      throw eventErrors.create('EVENT_CONSUMER_MISCONFIGURED', {
        message: `consumer ${spec.durableName} exists but is not an explicit-ack pull consumer`,
        details: { stream: spec.streamName, durable: spec.durableName },
      });
    }
    if (sameChangeable(current, changeable)) return existing;
    return await jsm.consumers.update(spec.streamName, spec.durableName, changeable);
  } catch (error) {
    if (eventErrors.is(error)) throw error;
    throw eventErrors.create('EVENT_CONSUMER_MISCONFIGURED', {
      message: `consumer ${spec.durableName}: ${error instanceof Error ? error.message : String(error)}`,
      details: { stream: spec.streamName, durable: spec.durableName },
      cause: error,
    });
  }
}

function changeableConfig(spec: DurableConsumerSpec): Partial<ConsumerUpdateConfig> {
  const base = { ack_wait: nanos(spec.ackWaitMs), max_deliver: spec.maxDeliver };
  const [first, ...others] = spec.filterSubjects;
  if (first === undefined) return base;
  // One filter goes in filter_subject: nats-server before 2.10 knows no filter_subjects.
  if (others.length === 0) return { ...base, filter_subject: first };
  return { ...base, filter_subjects: [...spec.filterSubjects] };
}

function sameChangeable(current: ConsumerConfig, wanted: Partial<ConsumerUpdateConfig>): boolean {
  const filters = (c: Partial<ConsumerUpdateConfig>): string =>
    [...(c.filter_subjects ?? []), ...(c.filter_subject ? [c.filter_subject] : [])].sort().join(' ');
  return (
    current.ack_wait === wanted.ack_wait &&
    current.max_deliver === wanted.max_deliver &&
    filters(current) === filters(wanted)
  );
}

async function infoOrUndefined(
  jsm: JetStreamManager,
  spec: DurableConsumerSpec,
): Promise<ConsumerInfo | undefined> {
  try {
    return await jsm.consumers.info(spec.streamName, spec.durableName);
  } catch (error) {
    if (error instanceof JetStreamApiError && error.code === CONSUMER_NOT_FOUND) return undefined;
    throw error;
  }
}
