import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { PROTO_ROOT } from '../proto-loader-options.js';
import type { DomainEvent } from './domain-event.js';

export const DOMAIN_EVENT_SCHEMA_PATH = join(PROTO_ROOT, 'tap/events/v1/domain-event.schema.json');

// ajv-formats is CommonJS with `exports.default`; under NodeNext the callable sits one level down.
const addFormats = addFormatsModule.default;

let validator: ValidateFunction | undefined;

function compiled(): ValidateFunction {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    validator = ajv.compile(JSON.parse(readFileSync(DOMAIN_EVENT_SCHEMA_PATH, 'utf8')) as object);
  }
  return validator;
}

export type ParsedDomainEvent = { ok: true; event: DomainEvent } | { ok: false; errors: string[] };

/** Checks a decoded JSON value against the domain-event (outbound) contract. */
export function parseDomainEvent(value: unknown): ParsedDomainEvent {
  const validate = compiled();
  if (validate(value)) return { ok: true, event: value as DomainEvent };
  const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  return { ok: false, errors };
}
