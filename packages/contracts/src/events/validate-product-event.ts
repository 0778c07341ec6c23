import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { PROTO_ROOT } from '../proto-loader-options.js';
import type { ProductEvent } from './product-event.js';

export const PRODUCT_EVENT_SCHEMA_PATH = join(PROTO_ROOT, 'tap/events/v1/product-event.schema.json');

// ajv-formats is CommonJS with `exports.default`; under NodeNext the callable sits one level down.
const addFormats = addFormatsModule.default;

let validator: ValidateFunction | undefined;

function compiled(): ValidateFunction {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    validator = ajv.compile(JSON.parse(readFileSync(PRODUCT_EVENT_SCHEMA_PATH, 'utf8')) as object);
  }
  return validator;
}

export type ParsedProductEvent = { ok: true; event: ProductEvent } | { ok: false; errors: string[] };

/** Checks a decoded JSON value against the product-event contract. */
export function parseProductEvent(value: unknown): ParsedProductEvent {
  const validate = compiled();
  if (validate(value)) return { ok: true, event: value as ProductEvent };
  const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  return { ok: false, errors };
}
