/** The gateway's counts of API requests per tenant for one UTC day (Redis, @tap/contracts api-request-days). */
export interface ApiRequestDaysSource {
  /** Tenant id → requests counted on `day` (`YYYY-MM-DD`) so far. */
  counts(day: string): Promise<ReadonlyMap<string, number>>;
}
