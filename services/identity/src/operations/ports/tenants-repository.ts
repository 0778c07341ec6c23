import type { Tenant } from '../../domain/tenant.js';

export interface TenantsRepository {
  insert(tenant: Tenant): Promise<void>;
  findById(tenantId: string): Promise<Tenant | undefined>;
  findBySlug(slug: string): Promise<Tenant | undefined>;
  /** Compensation only: undoes an insert whose companion write failed. */
  remove(tenantId: string): Promise<void>;
  ensureIndexes(): Promise<void>;
}
