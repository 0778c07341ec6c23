import type { DistinctMarkers } from '../usage-batch-ports.js';

/** The distinct traced products of each tenant (MAX_TRACED_PRODUCTS counts them). */
export type TracedProductsRepository = DistinctMarkers;
