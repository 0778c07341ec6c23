import type { JoinRequestStatus } from '@tap/contracts';
export interface JoinRequest {
  readonly id: string;
  readonly tenantId: string;
  readonly userId: string;
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly status: JoinRequestStatus;
  readonly createdAt: Date;
}

/** Email domains whose sign-ups need a tenant's approval, and the requests they made. */
export interface JoinRepository {
  ensureIndexes(): Promise<void>;
  claimDomain(domain: string, tenantId: string): Promise<void>;
  tenantForDomain(domain: string): Promise<string | undefined>;
  insertRequest(request: JoinRequest): Promise<void>;
  listPending(tenantId: string): Promise<JoinRequest[]>;
  /** The tenant's pending request `id`, or undefined. */
  findPending(tenantId: string, id: string): Promise<JoinRequest | undefined>;
  /** PENDING → APPROVED; the request after, or undefined when there is no pending one. */
  approve(tenantId: string, id: string): Promise<JoinRequest | undefined>;
  /** PENDING → REJECTED; the request after, or undefined when there is no pending one. */
  reject(tenantId: string, id: string): Promise<JoinRequest | undefined>;
}
