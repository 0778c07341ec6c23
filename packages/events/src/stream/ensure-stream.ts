import { DiscardPolicy, RetentionPolicy, StorageType, JetStreamApiError } from '@nats-io/jetstream';
import type { JetStreamManager, StreamConfig, StreamInfo } from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import { eventErrors } from '../errors.js';

/** What this package wants of a stream; everything else keeps the server's (or operator's) value. */
export interface StreamSpec {
  readonly name: string;
  readonly subjects: readonly string[];
  readonly duplicateWindowMs: number;
  /** 0 keeps messages until the other limits remove them. */
  readonly maxAgeMs: number;
  readonly replicas: number;
}

type WantedConfig = Pick<
  StreamConfig,
  'name' | 'subjects' | 'retention' | 'storage' | 'discard' | 'duplicate_window' | 'max_age' | 'num_replicas'
>;

const STREAM_NOT_FOUND = 10059;
const STREAM_NAME_IN_USE = 10058;

/**
 * Creates the stream, or brings an existing one to `spec`. Safe when several replicas run it at
 * the same time: a create that loses the race reads the winner's stream and updates it instead.
 * File storage and limits retention cannot change in place, so a stream with other values is an
 * operator's decision and is reported rather than recreated (that would drop its messages).
 */
export async function ensureStream(jsm: JetStreamManager, spec: StreamSpec): Promise<StreamInfo> {
  const wanted = desiredConfig(spec);
  let existing = await infoOrUndefined(jsm, spec.name);
  if (!existing) {
    try {
      return await jsm.streams.add(wanted);
    } catch (error) {
      if (!(error instanceof JetStreamApiError && error.code === STREAM_NAME_IN_USE))
        throw misconfigured(spec, error);
      existing = await jsm.streams.info(spec.name);
    }
  }
  const current = existing.config;
  if (current.storage !== wanted.storage || current.retention !== wanted.retention) {
    throw eventErrors.create('EVENT_STREAM_MISCONFIGURED', {
      message: `stream ${spec.name} exists with storage ${current.storage} and retention ${current.retention}`,
      details: { stream: spec.name },
    });
  }
  if (!needsUpdate(current, wanted)) return existing;
  try {
    return await jsm.streams.update(spec.name, {
      subjects: wanted.subjects,
      duplicate_window: wanted.duplicate_window,
      max_age: wanted.max_age,
      num_replicas: wanted.num_replicas,
    });
  } catch (error) {
    throw misconfigured(spec, error);
  }
}

function desiredConfig(spec: StreamSpec): WantedConfig {
  if (spec.maxAgeMs > 0 && spec.duplicateWindowMs > spec.maxAgeMs) {
    // The server refuses it too, but with a message that does not name our options.
    throw eventErrors.create('EVENT_STREAM_MISCONFIGURED', {
      message: 'duplicateWindowMs must not exceed maxAgeMs',
      details: { stream: spec.name },
    });
  }
  return {
    name: spec.name,
    subjects: [...spec.subjects],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    duplicate_window: nanos(spec.duplicateWindowMs),
    max_age: nanos(spec.maxAgeMs),
    num_replicas: spec.replicas,
  };
}

function needsUpdate(current: StreamConfig, wanted: WantedConfig): boolean {
  const sameSubjects =
    current.subjects.length === wanted.subjects.length &&
    current.subjects.every((s, i) => s === wanted.subjects[i]);
  return (
    !sameSubjects ||
    current.duplicate_window !== wanted.duplicate_window ||
    current.max_age !== wanted.max_age ||
    current.num_replicas !== wanted.num_replicas
  );
}

async function infoOrUndefined(jsm: JetStreamManager, name: string): Promise<StreamInfo | undefined> {
  try {
    return await jsm.streams.info(name);
  } catch (error) {
    if (error instanceof JetStreamApiError && error.code === STREAM_NOT_FOUND) return undefined;
    throw error;
  }
}

function misconfigured(spec: StreamSpec, cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return eventErrors.create('EVENT_STREAM_MISCONFIGURED', {
    message: `stream ${spec.name}: ${reason}`,
    details: { stream: spec.name },
    cause,
  });
}
