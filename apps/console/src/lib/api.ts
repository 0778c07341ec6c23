/**
 * The console's one seam to the API: every call goes through `api()`. It is written to the
 * behaviour the interface asks of a browser client, so pointing it at @tap/client (issue #14
 * item 4) changes this file only:
 * - the session is the HttpOnly `svc_session` cookie (same origin), never a token in script;
 * - every state-changing call carries `X-CSRF-Token` = the `svc_csrf` cookie (double submit);
 * - a `401` triggers one `POST /auth/v2/refresh`, then the call is retried once;
 * - a `429` waits `Retry-After` seconds (else 1 s), once, at most 10 s.
 */

export const API_BASE = '/api/v1';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const MAX_BACKOFF_MS = 10_000;

/** A refusal the pages branch on by `code` (UPPER_SNAKE or OAuth-style), never by message text. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

export function csrfToken(): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === 'svc_csrf') return value.join('=');
  }
  return undefined;
}

/** The refusal in any of the gateway's three error shapes (docs/api.md "Envelope and errors"). */
function errorOf(status: number, body: unknown): ApiError {
  const b = (body ?? {}) as {
    error?: string | { code?: string; message?: string };
    error_description?: string;
    message?: string;
  };
  if (typeof b.error === 'object' && b.error !== null)
    return new ApiError(status, b.error.code ?? `HTTP_${status}`, b.error.message ?? 'Request refused');
  if (typeof b.error === 'string')
    return new ApiError(status, b.error, b.error_description ?? b.message ?? 'Request refused');
  return new ApiError(status, `HTTP_${status}`, 'The server could not answer this request');
}

async function send(method: string, path: string, body: unknown): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const csrf = csrfToken();
  if (!SAFE_METHODS.has(method) && csrf) headers['x-csrf-token'] = csrf;
  return fetch(`${API_BASE}${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

let refreshing: Promise<boolean> | undefined;

/** One refresh at a time: two calls that see a 401 together share it (rotation is single use). */
export function refreshSession(): Promise<boolean> {
  refreshing ??= send('POST', '/auth/v2/refresh', undefined)
    .then((response) => response.status === 204)
    .catch(() => false)
    .finally(() => {
      refreshing = undefined;
    });
  return refreshing;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function retryAfterMs(response: Response): number {
  const seconds = Number(response.headers.get('retry-after'));
  return Math.min(Number.isFinite(seconds) && seconds > 0 ? seconds * 1_000 : 1_000, MAX_BACKOFF_MS);
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
 * `retry: false` for the auth calls themselves (a 401 there is an answer, not an expiry).
 */
export async function apiRaw(
  method: string,
  path: string,
  body?: unknown,
  options: { retry?: boolean } = {},
): Promise<unknown> {
  let response = await send(method, path, body);
  if (response.status === 429) {
    await sleep(retryAfterMs(response));
    response = await send(method, path, body);
  }
  if (response.status === 401 && options.retry !== false && (await refreshSession())) {
    response = await send(method, path, body);
  }
  const json = await readJson(response);
  if (!response.ok) throw errorOf(response.status, json);
  return json;
}

/** As apiRaw, resolving with the envelope's `data`. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const json = (await apiRaw(method, path, body)) as { data?: T } | undefined;
  return json?.data as T;
}
