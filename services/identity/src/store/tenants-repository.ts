import type { Collection, Db } from 'mongodb';
import { identityErrors } from '../domain/errors.js';
import type { Tenant } from '../domain/tenant.js';
import { isDuplicateKey } from '@tap/errors';
import type { TenantsRepository } from '../operations/ports/tenants-repository.js';

interface TenantDocument {
  _id: string;
  name: string;
  slug: string;
  createdAt: Date;
}

const toTenant = (doc: TenantDocument): Tenant => ({
  id: doc._id,
  name: doc.name,
  slug: doc.slug,
  createdAt: doc.createdAt,
});

export function tenantsRepository(db: Db): TenantsRepository {
  const tenants: Collection<TenantDocument> = db.collection('tenants');
  return {
    async ensureIndexes() {
      await tenants.createIndex({ slug: 1 }, { unique: true, name: 'slug_unique' });
    },
    async insert(tenant) {
      try {
        await tenants.insertOne({
          _id: tenant.id,
          name: tenant.name,
          slug: tenant.slug,
          createdAt: tenant.createdAt,
        });
      } catch (error) {
        if (isDuplicateKey(error)) throw identityErrors.create('TENANT_SLUG_TAKEN');
        throw error;
      }
    },
    async findById(tenantId) {
      const doc = await tenants.findOne({ _id: tenantId });
      return doc ? toTenant(doc) : undefined;
    },
    async remove(tenantId) {
      await tenants.deleteOne({ _id: tenantId });
    },
    async findBySlug(slug) {
      const doc = await tenants.findOne({ slug });
      return doc ? toTenant(doc) : undefined;
    },
  };
}
