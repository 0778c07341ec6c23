import type { Options } from '@grpc/proto-loader';
import { fileURLToPath } from 'node:url';

/** The folder that holds every .proto contract (the repository's `proto/`). */
export const PROTO_ROOT = fileURLToPath(new URL('../../../proto/', import.meta.url));

/**
 * The one set of proto-loader options. scripts/generate.sh passes the same choices to
 * proto-loader-gen-types, so the generated types describe exactly what the loader produces.
 */
export const PROTO_LOADER_OPTIONS: Readonly<Options> = Object.freeze({
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
});
