import { browserSession, cookieValue, createTapFetch, CSRF_COOKIE } from '@tap/client';

/**
 * The console's one seam to the API: every call goes through `api()`, and every request through
 * @tap/client's fetch in its browser-session mode, which does what the interface asks of a
 * first-party browser client:
 * - the session is the HttpOnly `svc_session` cookie (same origin), never a token in script;
 * - every state-changing call carries `X-CSRF-Token` = the `svc_csrf` cookie (double submit);
 * - a `401` triggers one `POST /auth/v2/refresh` (shared by concurrent calls), then one retry;
 * - a `429` on a safe method is waited out (`Retry-After`, else 1 s doubling, bounded).
 * This file adds the envelope (`data`) and turns refusals into ApiError with their code.
 */

export const API_BASE = '/api/v1';

const tapFetch = createTapFetch({ baseUrl: API_BASE, auth: browserSession() });

/** A refusal the pages branch on by `code` (UPPER_SNAKE or OAuth-style), never by message text. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /**
   * The structured error's other fields (`details`, and anything the gateway adds beside it such
   * as an `upgradeContext`), for the pages that explain a refusal (a seat limit) in its own words.
   */
  readonly body: Readonly<Record<string, unknown>>;
  constructor(status: number, code: string, message: string, body: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

export function csrfToken(): string | undefined {
  return cookieValue(document.cookie, CSRF_COOKIE);
}

/** The refusal in any of the gateway's three error shapes (docs/api.md "Envelope and errors"). */
function errorOf(status: number, body: unknown): ApiError {
  const b = (body ?? {}) as {
    error?: string | { code?: string; message?: string; [field: string]: unknown };
    error_description?: string;
    message?: string;
  };
  if (typeof b.error === 'object' && b.error !== null)
    return new ApiError(
      status,
      b.error.code ?? `HTTP_${status}`,
      b.error.message ?? 'Request refused',
      b.error,
    );
  if (typeof b.error === 'string')
    return new ApiError(status, b.error, b.error_description ?? b.message ?? 'Request refused');
  return new ApiError(status, `HTTP_${status}`, 'The server could not answer this request');
}

function send(method: string, path: string, body: unknown): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return tapFetch(
    new Request(`${API_BASE}${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
}

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Calls `path` (relative to /api/v1) and resolves with the whole JSON body, or throws ApiError.
 * The /auth endpoints are never refreshed and retried by the client: a 401 there is an answer.
 */
export async function apiRaw(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await send(method, path, body);
  const json = await readJson(response);
  if (!response.ok) throw errorOf(response.status, json);
  return json;
}

/** As apiRaw, resolving with the envelope's `data`. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const json = (await apiRaw(method, path, body)) as { data?: T } | undefined;
  return json?.data as T;
}

/**
 * A file the API answers (the audit log's CSV) as a Blob, through the same seam: the session
 * cookie, the refresh on a 401, and a refusal turned into ApiError instead of a saved error page.
 */
export async function apiFile(path: string, accept: string): Promise<Blob> {
  const response = await tapFetch(
    new Request(`${API_BASE}${path}`, { headers: { accept }, credentials: 'same-origin' }),
  );
  if (!response.ok) throw errorOf(response.status, await readJson(response));
  return response.blob();
}
