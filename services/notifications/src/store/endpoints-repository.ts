import type { Collection, Db } from 'mongodb';
import type { EndpointsRepository, WebhookEndpoint } from '../operations/ports.js';

type EndpointDocument = Omit<WebhookEndpoint, 'id'> & { _id: string };

/** Webhook endpoints (`webhook_endpoints`, `_id` = endpoint id); every method is scoped by tenant. */
export function endpointsRepository(db: Db): EndpointsRepository {
  const endpoints: Collection<EndpointDocument> = db.collection('webhook_endpoints');
  const toEndpoint = ({ _id, ...rest }: EndpointDocument): WebhookEndpoint => ({ id: _id, ...rest });
  return {
    async insert({ id, ...rest }) {
      await endpoints.insertOne({ _id: id, ...rest });
    },
    async find(tenantId, id) {
      const doc = await endpoints.findOne({ _id: id, tenantId });
      return doc ? toEndpoint(doc) : null;
    },
    async list(tenantId) {
      return (await endpoints.find({ tenantId }).sort({ createdAt: 1 }).limit(100).toArray()).map(toEndpoint);
    },
    async subscribedTo(tenantId, type) {
      return (await endpoints.find({ tenantId, enabled: true, types: type }).toArray()).map(toEndpoint);
    },
    async replaceSecrets(tenantId, id, secrets, at) {
      const result = await endpoints.updateOne(
        { _id: id, tenantId },
        { $set: { secrets: [...secrets], updatedAt: at } },
      );
      return result.matchedCount === 1;
    },
    async markFailing(tenantId, id, at) {
      await endpoints.updateOne({ _id: id, tenantId, failingSince: null }, { $set: { failingSince: at } });
    },
    async markHealthy(tenantId, id) {
      await endpoints.updateOne({ _id: id, tenantId }, { $set: { failingSince: null } });
    },
    async update(tenantId, id, change, at) {
      const set: { -readonly [K in keyof EndpointDocument]?: EndpointDocument[K] } = { updatedAt: at };
      if (change.types) set.types = [...change.types];
      if (change.enabled !== undefined) {
        set.enabled = change.enabled;
        set.disabledReason = change.enabled ? null : 'BY_USER';
        if (change.enabled) set.failingSince = null;
      }
      const result = await endpoints.updateOne({ _id: id, tenantId }, { $set: set });
      if (result.matchedCount !== 1) return null;
      const doc = await endpoints.findOne({ _id: id, tenantId });
      return doc ? toEndpoint(doc) : null;
    },
    async delete(tenantId, id) {
      return (await endpoints.deleteOne({ _id: id, tenantId })).deletedCount === 1;
    },
    async disable(tenantId, id, reason, at) {
      await endpoints.updateOne(
        { _id: id, tenantId },
        { $set: { enabled: false, disabledReason: reason, updatedAt: at } },
      );
    },
  };
}
