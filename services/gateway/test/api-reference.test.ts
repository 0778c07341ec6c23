import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { openGatewayBed, type GatewayBed } from './support/entitlements-bed.js';

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** Every `src` and `href` of the page. */
const referencesOf = (html: string) => [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);

describe('GET /api/v1/docs (the API reference page)', () => {
  let bed: GatewayBed;
  let page: Answer;

  /** The bed's request parses JSON; the page and its files are not. */
  const get = async (path: string): Promise<Answer> => {
    const { port } = bed.gateway.server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(10_000) });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  beforeAll(async () => {
    bed = await openGatewayBed('api reference');
    page = await get('/api/v1/docs');
  });
  afterAll(async () => {
    await bed?.close();
  });

  it('answers 200 HTML without a token', () => {
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toEqual(expect.stringContaining('<main id="reference"'));
  });

  it('renders the published document: its data-spec-url is /api/v1/openapi.json, which answers', async () => {
    expect(page.text).toEqual(expect.stringContaining('data-spec-url="/api/v1/openapi.json"'));
    expect((await get('/api/v1/openapi.json')).status).toBe(200);
  });

  it('loads every script, stylesheet and icon from our own origin, and each answers', async () => {
    const references = referencesOf(page.text);
    expect(references.length).toBeGreaterThanOrEqual(5);
    for (const reference of references) {
      expect(reference).toMatch(/^\/api\/v1\/docs\/assets\/[a-z0-9.-]+$/);
      const asset = await get(reference);
      expect({ reference, status: asset.status }).toEqual({ reference, status: 200 });
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const bundle = await get('/api/v1/docs/assets/swagger-ui-bundle.js');
    expect(bundle.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(bundle.text.length).toBeGreaterThan(100_000);
  });

  it('has no inline script or style, and a CSP that allows our origin only', () => {
    const html = page.text;
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it('keeps the CSP to the page: the API answers do not carry it', async () => {
    const api = await get('/api/v1/openapi.json');
    expect(api.headers.get('content-security-policy')).toBeNull();
  });

  it('answers any other asset name 404 in the error shape, never a file from elsewhere', async () => {
    for (const name of [
      'index.html',
      'swagger-initializer.js',
      '..%2Fpackage.json',
      'swagger-ui-bundle.js.map',
    ]) {
      const answer = await get(`/api/v1/docs/assets/${name}`);
      expect({ name, status: answer.status }).toEqual({ name, status: 404 });
      expect(JSON.parse(answer.text)).toEqual({
        success: false,
        error: expect.objectContaining({ code: expect.any(String) }),
      });
    }
  });

  it('is not an operation of the document (the fuzz gate sees the same operations as before)', async () => {
    const document = JSON.parse((await get('/api/v1/openapi.json')).text) as { paths: object };
    expect(Object.keys(document.paths).filter((path) => path.includes('/docs'))).toEqual([]);
  });
});
