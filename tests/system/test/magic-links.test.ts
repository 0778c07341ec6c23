import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { unaryCall } from '@tap/grpc-kit';
import { Browser } from './support/cookie-jar.js';
import { openIdentityFixtures, type Account, type IdentityFixtures } from './support/identity-fixtures.js';
import {
  OPERATOR_TOKEN,
  SYSTEM_ORIGIN,
  startSystem,
  type HttpResponse,
  type System,
} from './support/system.js';

const V2 = '/api/v1/auth/v2';
const FIXED = {
  success: true,
  message: 'If an account exists for that address, a sign-in link is on its way.',
};
const invalidOrExpired = {
  success: false,
  error: { code: 'INVALID_OR_EXPIRED', message: expect.any(String) },
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('magic links under /auth/v2 (spec: "Magic-link sign-in")', () => {
  let system: System;
  let fx: IdentityFixtures;
  let owner: Account;
  let addresses = 0;
  const browserAt = () => new Browser(system, undefined, `192.0.2.${(addresses += 1)}`);
  const domain = () => `${system.namespace.replace(/_/g, '-')}.example`;

  beforeAll(async () => {
    system = await startSystem('magic_links', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
    owner = await fx.tenantWithOwner('Magic Mills');
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  /** Asks for a link and reads it from the sink: the token from the URL fragment. */
  const mailedToken = async (
    browser: Browser,
    email: string,
    path = 'magic-link/request',
    body: object = { email },
  ) => {
    const since = system.mail.messages.length;
    const response = await browser.post(`${V2}/${path}`, { body });
    expect(response.status).toBe(200);
    const message = await system.mail.waitForMessage(email, { since, timeoutMs: 5_000 });
    const link = /https:\/\/\S+/.exec(message.text)?.[0] ?? '';
    expect(link.startsWith(`${SYSTEM_ORIGIN}/auth/magic-link#token=ml_`)).toBe(true);
    expect(link).not.toContain('?');
    return { token: new URL(link).hash.slice('#token='.length), response };
  };
  const redeem = (browser: Browser, token: string) =>
    browser.post(`${V2}/magic-link/redeem`, { body: { token } });
  const expectSignedIn = (response: HttpResponse, browser: Browser) => {
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      message: expect.any(String),
      data: { user: { tenant: expect.any(Object) } },
    });
    expect(browser.jar.get('svc_session')).toBeDefined();
    expect(browser.jar.get('svc_refresh')).toBeDefined();
    expect(browser.jar.get('svc_csrf')).toBeDefined();
  };

  it('existing user: request → email from the sink → redeem signs in with cookies and the user with its tenant', async () => {
    const browser = browserAt();
    const { token, response } = await mailedToken(browser, owner.email);
    expect(response.body).toEqual(FIXED);
    const redeemed = await redeem(browser, token);
    expectSignedIn(redeemed, browser);
    expect(redeemed.body).toMatchObject({
      data: {
        user: {
          id: owner.userId,
          email: owner.email,
          tenantId: owner.tenantId,
          tenant: { id: owner.tenantId },
        },
        tenantProvisioned: false,
      },
    });
    expect((await browser.request('GET', '/api/v1/tenant')).status).toBe(200);
  });

  it('an unknown address gets the same answer in about the same time, and no email', async () => {
    const timed = async (email: string) => {
      const started = performance.now();
      const response = await browserAt().post(`${V2}/magic-link/request`, { body: { email } });
      return { response, ms: performance.now() - started };
    };
    await timed(owner.email); // warm-up
    const known = await timed(owner.email);
    const unknown = await timed(`nobody-${Date.now()}@${domain()}`);
    expect(unknown.response.status).toBe(200);
    expect(unknown.response.body).toEqual(known.response.body);
    expect(Math.abs(known.ms - unknown.ms)).toBeLessThan(200);
    await sleep(300);
    expect(system.mail.messages.some((m) => m.to.some((to) => to.startsWith('nobody-')))).toBe(false);
  });

  it('a token works once: used twice → 400 INVALID_OR_EXPIRED', async () => {
    const { token } = await mailedToken(browserAt(), owner.email);
    expect((await redeem(browserAt(), token)).status).toBe(200);
    const again = await redeem(browserAt(), token);
    expect(again.status).toBe(400);
    expect(again.body).toEqual(invalidOrExpired);
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it('two concurrent redeems of one token: exactly one signs in', async () => {
    const { token } = await mailedToken(browserAt(), owner.email);
    const answers = await Promise.all([redeem(browserAt(), token), redeem(browserAt(), token)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
  });

  it('a token in the query string is refused and not burned; a GET of it is not served', async () => {
    const { token } = await mailedToken(browserAt(), owner.email);
    const browser = browserAt();
    const inQuery = await browser.post(`${V2}/magic-link/redeem?token=${token}`, { body: { token: 'ml_x' } });
    expect(inQuery.status).toBe(400);
    expect(inQuery.body).toEqual(invalidOrExpired);
    const prefetch = await browser.request('GET', `${V2}/magic-link/redeem?token=${token}`);
    // A link prefetcher's GET is not served: the path takes POST only (405 with Allow).
    expect([prefetch.status, prefetch.headers.get('allow')]).toEqual([405, 'POST']);
    expectSignedIn(await redeem(browser, token), browser);
  });

  it('forged and expired tokens → 400 INVALID_OR_EXPIRED', async () => {
    expect((await redeem(browserAt(), 'ml_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).body).toEqual(
      invalidOrExpired,
    );
    expect((await redeem(browserAt(), 'not-a-token')).body).toEqual(invalidOrExpired);
    const { token } = await mailedToken(browserAt(), owner.email);
    await fx.db
      .collection('magic_links')
      .updateMany({ usedAt: null }, { $set: { expiresAt: new Date(Date.now() - 1_000) } });
    const expired = await redeem(browserAt(), token);
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual(invalidOrExpired);
  });

  it('refuses a foreign Origin on request and redeem', async () => {
    for (const path of ['magic-link/request', 'magic-link/redeem', 'signup']) {
      const response = await browserAt().post(`${V2}/${path}`, {
        origin: 'https://evil.example',
        body: { email: owner.email, token: 'ml_x' },
      });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ success: false, error: { code: 'ORIGIN_NOT_ALLOWED' } });
    }
  });

  it('passwordless sign-up: signup → email → redeem provisions the tenant and its owner and signs in', async () => {
    const email = `founder-${Date.now()}@${domain()}`;
    const browser = browserAt();
    const { token, response } = await mailedToken(browser, email, 'signup', {
      email,
      companyName: `Founders ${Date.now()}`,
      firstName: 'Fay',
      lastName: 'Founder',
    });
    expect(response.body).toEqual({ success: true, message: expect.any(String) });
    const redeemed = await redeem(browser, token);
    expectSignedIn(redeemed, browser);
    expect(redeemed.body).toMatchObject({
      data: {
        user: {
          email,
          role: 'OWNER',
          firstName: 'Fay',
          lastName: 'Founder',
          tenant: { name: expect.stringMatching(/^Founders /) },
        },
        // The web app tells a founder from a returning user by this, never by the message text.
        tenantProvisioned: true,
      },
    });
    // The new owner cannot sign in with a password nobody knows; the link is the way in.
    expect((await browser.request('GET', '/api/v1/tenant')).status).toBe(200);
  });

  it('a domain that gates joins: redeem answers pending_approval without cookies; an owner lists and approves; then the user signs in', async () => {
    const gated = `gated-${Date.now()}.example`;
    await unaryCall(
      fx.identity,
      'ClaimJoinDomain',
      { tenantId: owner.tenantId, domain: gated },
      { authorization: `Operator ${OPERATOR_TOKEN}` },
    );
    const email = `joiner@${gated}`;
    const joiner = browserAt();
    const { token } = await mailedToken(joiner, email, 'signup', {
      email,
      companyName: 'Ignored Inc',
      firstName: 'Jo',
      lastName: 'Joiner',
    });
    const pending = await redeem(joiner, token);
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual({ success: true, status: 'pending_approval', message: expect.any(String) });
    expect(pending.headers.getSetCookie()).toEqual([]);

    // Not active yet: asking for a sign-in link sends nothing.
    await joiner.post(`${V2}/magic-link/request`, { body: { email } });

    const ownerBrowser = browserAt();
    expect(
      (await ownerBrowser.post(`${V2}/login`, { body: { email: owner.email, password: owner.password } }))
        .status,
    ).toBe(200);
    const listed = await ownerBrowser.request('GET', '/api/v1/tenant/join-requests');
    expect(listed.status).toBe(200);
    const requests = (listed.body as { data: { requests: { id: string; email: string; status: string }[] } })
      .data.requests;
    const mine = requests.find((r) => r.email === email)!;
    expect(mine).toMatchObject({ status: 'PENDING', firstName: 'Jo', lastName: 'Joiner' });

    const member = await fx.addUser(owner.tenantId, 'MEMBER');
    const memberBrowser = browserAt();
    await memberBrowser.post(`${V2}/login`, { body: { email: member.email, password: member.password } });
    expect((await memberBrowser.request('GET', '/api/v1/tenant/join-requests')).status).toBe(403);

    const noCsrf = await ownerBrowser.post(`/api/v1/tenant/join-requests/${mine.id}/approve`, {
      csrf: false,
    });
    expect(noCsrf.status).toBe(403);
    const approved = await ownerBrowser.post(`/api/v1/tenant/join-requests/${mine.id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ success: true, data: { id: mine.id, status: 'APPROVED' } });
    expect(system.mail.messages.filter((m) => m.to.includes(email))).toHaveLength(1);

    const { token: signIn } = await mailedToken(joiner, email);
    const signedIn = await redeem(joiner, signIn);
    expectSignedIn(signedIn, joiner);
    expect(signedIn.body).toMatchObject({
      data: { user: { email, role: 'MEMBER', tenantId: owner.tenantId } },
    });
  });
});
