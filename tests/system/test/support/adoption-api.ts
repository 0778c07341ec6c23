import { expect } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { ProductEvent, ProductEventKind } from '@tap/contracts';
import type { HttpResponse, System } from './system.js';

/** A clock the test moves by hand (adoption's `now`); starts at `start`. */
export interface ManualClock {
  now(): Date;
  advance(ms: number): void;
}

export function manualClock(start: Date): ManualClock {
  let at = start.getTime();
  return {
    now: () => new Date(at),
    advance(ms) {
      at += ms;
    },
  };
}

/** The adoption endpoints as one tenant user calls them. */
export interface AdoptionApi {
  get(path: string): Promise<HttpResponse>;
  post(path: string, body?: unknown): Promise<HttpResponse>;
  /** `data` of a 200 GET, failing loudly on anything else. */
  data<T>(path: string): Promise<T>;
}

export function adoptionApi(system: System, bearer: string): AdoptionApi {
  const headers = { authorization: bearer };
  const base = '/api/v1/tenant/adoption';
  return {
    get: (path) => system.http('GET', `${base}${path}`, { headers }),
    post: (path, body) =>
      system.http('POST', `${base}${path}`, { headers, ...(body === undefined ? {} : { body }) }),
    async data<T>(path: string) {
      const response = await system.http('GET', `${base}${path}`, { headers });
      if (response.status !== 200)
        throw new Error(`GET ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
      return (response.body as { data: T }).data;
    },
  };
}

/** A valid product event for `tenantId`, dated `at`. */
export function event(
  tenantId: string,
  type: ProductEventKind,
  subject: Record<string, string>,
  at: Date,
  data: Record<string, unknown> = {},
): ProductEvent {
  return { id: randomUUID(), type, tenantId, occurredAt: at.toISOString(), subject, data };
}

export interface MilestoneJson {
  key: string;
  status: string;
  requiredCapability: string | null;
  upgradeContext: unknown;
  lockedReasons: { unmetDependencyKey: string }[];
}

export interface StateJson {
  companyId: string;
  currentMaturityRung: string;
  healthScore: number | null;
  healthBand: string;
  version: number;
  milestones: MilestoneJson[];
}

export interface SignalJson {
  id: string;
  kind: string;
  severity: string;
  resolution: string;
  escalatedToHuman: boolean;
  subjectRef: Record<string, string>;
  detectedAt: string;
  resolvedAt: string | null;
}

export interface PlanJson {
  id: string;
  title: string;
  targetDate: string;
  status: string;
  renewedFromId: string | null;
  objectives: { label: string; milestoneKeys: string[]; met: boolean }[];
}

/**
 * The general error body of the spec, `{ success: false, error: { code, message, details? } }`;
 * `details`, when given, must contain these entries.
 */
export function errorBody(code: string, details?: Record<string, unknown>) {
  return {
    success: false,
    error:
      details === undefined
        ? expect.objectContaining({ code, message: expect.any(String) })
        : { code, message: expect.any(String), details: expect.objectContaining(details) },
  };
}
