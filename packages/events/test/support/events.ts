import { randomUUID } from 'node:crypto';
import type { ProductEvent } from '@tap/contracts';

/** A valid product.created event of `tenantId`, with a fresh id. */
export function productCreated(
  tenantId: string,
  productId = `p-${randomUUID()}`,
): ProductEvent<'product.created'> {
  return {
    id: randomUUID(),
    type: 'product.created',
    tenantId,
    occurredAt: new Date().toISOString(),
    subject: { productId },
    data: {},
  };
}
