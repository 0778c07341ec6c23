import { randomUUID } from 'node:crypto';

const PARTNER = '3f0c3c9e-8a55-4d0e-9b1a-2c3d4e5f6a70';

/**
 * The n-th event of a busy supplier: products, updates, versions, views over a connection,
 * data requests and imports, so every rule of the recompute has work to do.
 * @param {string} tenantId
 * @param {number} n
 * @param {Date} at
 * @returns {import('@tap/contracts').ProductEvent}
 */
export function journeyEvent(tenantId, n, at) {
  const product = `p-${Math.floor(n / 4)}`;
  const base = { id: randomUUID(), tenantId, occurredAt: at.toISOString(), data: {} };
  switch (n % 8) {
    case 0:
      return { ...base, type: 'product.created', subject: { productId: product } };
    case 1:
      return { ...base, type: 'product.updated', subject: { productId: product } };
    case 2:
      return {
        ...base,
        type: 'product_version.published',
        subject: { productId: product, versionId: `v-${n}` },
      };
    case 3:
      return {
        ...base,
        type: 'connection.invited',
        subject: { connectionId: `c-${n}` },
        data: { partnerTenantId: PARTNER },
      };
    case 4:
      return {
        ...base,
        type: 'connection.accepted',
        subject: { connectionId: `c-${n - 1}` },
        data: { partnerTenantId: PARTNER },
      };
    case 5:
      return {
        ...base,
        type: 'product.viewed',
        subject: { productId: product, connectionId: `c-${n - 2}` },
        data: { viewerTenantId: PARTNER },
      };
    case 6:
      return {
        ...base,
        type: 'data_request.sent',
        subject: { requestId: `r-${n}`, connectionId: `c-${n - 3}` },
      };
    default:
      return { ...base, type: 'import.completed', subject: { importId: `i-${n}` }, data: { rows: 25 } };
  }
}
