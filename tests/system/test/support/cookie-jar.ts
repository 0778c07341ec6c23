import { SYSTEM_ORIGIN, type HttpResponse, type System } from './system.js';

/** One stored cookie with the attributes tests assert on. */
export interface StoredCookie {
  readonly name: string;
  readonly value: string;
  readonly path: string;
  /** Lower-cased attribute names to values ('' for flags such as HttpOnly). */
  readonly attributes: ReadonlyMap<string, string>;
}

/**
 * A browser's cookie store, as much of it as the tests need: `Set-Cookie` answers are stored
 * (Max-Age=0 deletes), and a request carries the cookies whose Path prefixes its path.
 */
export class CookieJar {
  private readonly cookies = new Map<string, StoredCookie>();

  store(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...rest] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const attributes = new Map<string, string>();
      for (const part of rest) {
        const at = part.indexOf('=');
        if (at < 0) attributes.set(part.trim().toLowerCase(), '');
        else attributes.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim());
      }
      if (attributes.get('max-age') === '0') this.cookies.delete(name);
      else this.cookies.set(name, { name, value, path: attributes.get('path') ?? '/', attributes });
    }
  }

  get(name: string): StoredCookie | undefined {
    return this.cookies.get(name);
  }

  set(name: string, value: string, path = '/'): void {
    this.cookies.set(name, { name, value, path, attributes: new Map() });
  }

  delete(name: string): void {
    this.cookies.delete(name);
  }

  header(path: string): string | undefined {
    const matching = [...this.cookies.values()].filter(
      (c) => path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`),
    );
    return matching.length ? matching.map((c) => `${c.name}=${c.value}`).join('; ') : undefined;
  }

  /** A copy (a second tab shares the cookies at this instant). */
  clone(): CookieJar {
    const copy = new CookieJar();
    for (const [name, cookie] of this.cookies) copy.cookies.set(name, cookie);
    return copy;
  }
}

export interface BrowserRequest {
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Echo svc_csrf in X-CSRF-Token, as the page's script does (default true). */
  readonly csrf?: boolean;
  /** The Origin header (default the allowlisted app origin; null sends none). */
  readonly origin?: string | null;
  /** Follow redirects (default) or hand back the 3xx. */
  readonly redirect?: 'follow' | 'manual';
}

/** A browser on the allowlisted origin: sends its cookies and stores what it is given. */
export class Browser {
  constructor(
    private readonly system: System,
    readonly jar = new CookieJar(),
    /** This browser's client address (X-Forwarded-For; the system must trust one hop). */
    readonly forwardedFor?: string,
  ) {}

  async request(method: string, path: string, options: BrowserRequest = {}): Promise<HttpResponse> {
    const headers: Record<string, string> = {};
    const origin = options.origin === undefined ? SYSTEM_ORIGIN : options.origin;
    if (origin !== null) headers['origin'] = origin;
    if (this.forwardedFor) headers['x-forwarded-for'] = this.forwardedFor;
    const cookie = this.jar.header(path.split('?')[0]!);
    if (cookie) headers['cookie'] = cookie;
    const csrf = this.jar.get('svc_csrf')?.value;
    if (options.csrf !== false && csrf) headers['x-csrf-token'] = csrf;
    const response = await this.system.http(method, path, {
      headers: { ...headers, ...options.headers },
      body: options.body,
      ...(options.redirect ? { redirect: options.redirect } : {}),
    });
    this.jar.store(response.headers);
    return response;
  }

  post(path: string, options: BrowserRequest = {}): Promise<HttpResponse> {
    return this.request('POST', path, options);
  }

  /** A second tab of the same browser profile, with the cookies as they are now (not shared after). */
  fork(): Browser {
    return new Browser(this.system, this.jar.clone(), this.forwardedFor);
  }
}
