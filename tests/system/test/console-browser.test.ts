import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { verifyWebhook } from '@tap/client';
import { startSmtpSink, waitFor, type SmtpSink } from '@tap/testkit';
import type { Page } from 'playwright-core';
import { event } from './support/adoption-api.js';
import {
  screenshots,
  seriousViolations,
  startChromium,
  WAIT_MS,
  type ChromiumSession,
} from './support/chromium.js';
import { startProcessStack, type ProcessStack } from './support/process-stack.js';
import { SSO_KEYS } from './support/process-sso.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

/*
 * The web console in a real Chromium against the real process stack (four services, two
 * OpenID Providers, an SMTP sink): every page, every way to sign in, the tasks of issue #14.
 * One browser profile for the whole file; tests run in order and build on each other.
 */

// A test makes several bounded waits (WAIT_MS each); the file's default of 60 s is too tight for that.
jest.setTimeout(180_000);

let stack: ProcessStack;
let mail: SmtpSink;
let chrome: ChromiumSession;
let page: Page;
let tenantId: string;
/** A second browser (its own profile and cookies): the invited people, and the owner's other device. */
let other: ChromiumSession | undefined;
let otherPage: Page;
/* Issue #24: a loopback receiver for the endpoint made in the Webhooks page. */
let receiver: WebhookReceiver;
const domain = () => `${stack.namespace.replace(/_/g, '-')}.example`;
const owner = { email: '', password: 'console owner passphrase 1', firstName: 'Olive', lastName: 'Owner' };

const url = (path: string) => `${stack.base}${path}`;
const heading = (text: string) => page.getByRole('heading', { level: 1, name: text });

/** No serious accessibility violation, then screenshots at both widths. */
async function checkPage(name: string, on: Page = page): Promise<void> {
  expect([name, await seriousViolations(on)]).toEqual([name, []]);
  await screenshots(on, name);
}

/** The link in the newest mail to `to` (the token is in its fragment). */
async function mailedLink(to: string, since: number): Promise<string> {
  const message = await mail.waitForMessage(to, { since, timeoutMs: WAIT_MS });
  const link = /https?:\/\/\S+/.exec(message.text)?.[0] ?? '';
  expect(link.startsWith(`${stack.base}/auth/magic-link#token=ml_`)).toBe(true);
  return link;
}

/** The last point of a key's 30-day history, as the signed-in page reads it. */
const historyLast = (key: string) =>
  page.evaluate(async (k) => {
    const response = await fetch(`/api/v1/entitlements/usage/history?key=${k}`);
    const body = (await response.json()) as { data: { points: { value: number }[] } };
    return body.data.points.at(-1)?.value ?? -1;
  }, key);

/** The adoption state as the signed-in page sees it (same origin, session cookie). */
const stateVersion = () =>
  page.evaluate(async () => {
    const response = await fetch('/api/v1/tenant/adoption/state');
    return ((await response.json()) as { data: { version: number } }).data.version;
  });

/* Issue #22: the Team page and the Account area. */
const invitee = {
  email: '',
  firstName: 'Ivy',
  lastName: 'Invitee',
  password: 'invited member passphrase 1',
};
const memberRow = (email: string, attributes = '') => page.locator(`tr[data-member="${email}"]${attributes}`);
/** The seat usage line of the Team page once it reads `text` ("2 of 3 users"). */
const seatsRead = (text: string) =>
  page
    .getByTestId('seats')
    .filter({ hasText: text })
    .waitFor()
    .catch(async (error: Error) => {
      throw new Error(`${error.message}; the page says: ${await page.getByTestId('seats').textContent()}`);
    });

/** The invitation link in the newest mail to `to` (the token is in its fragment). */
async function invitationLink(to: string, since: number): Promise<string> {
  const message = await mail.waitForMessage(to, { since, timeoutMs: WAIT_MS });
  const link = /https?:\/\/\S+/.exec(message.text)?.[0] ?? '';
  expect(link.startsWith(`${stack.base}/console/accept-invitation#token=`)).toBe(true);
  return link;
}

/** Invites `email` from the Team page and resolves with the link the invitation mail carries. */
async function invite(email: string, role: 'OWNER' | 'ADMIN' | 'MEMBER'): Promise<string> {
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption(role);
  const since = mail.messages.length;
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await page.getByText(`Invitation sent to ${email}`).waitFor();
  await page.locator(`[data-invitation="${email}"]`).waitFor();
  return invitationLink(email, since);
}

/** In the second browser: opens an invitation link and creates the account it asks for. */
async function acceptAsNewAccount(
  link: string,
  person: { firstName: string; lastName: string; password: string },
  check?: string,
): Promise<void> {
  await otherPage.goto(link);
  await otherPage.locator('[data-outcome="invitation-ready"]').waitFor();
  // The token left the address bar before anything else happened.
  expect(new URL(otherPage.url()).hash).toBe('');
  if (check) await checkPage(check, otherPage);
  await otherPage.getByLabel('First name').fill(person.firstName);
  await otherPage.getByLabel('Last name').fill(person.lastName);
  await otherPage.getByLabel('Choose a password').fill(person.password);
  await otherPage.getByRole('button', { name: /^Create my account and join / }).click();
  await otherPage.locator('[data-outcome="invitation-accepted"]').waitFor();
}

/** Polls (bounded) until the second browser's session is refused, then its console shows sign-in. */
async function otherSignedOut(): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  const status = () => otherPage.evaluate(async () => (await fetch('/api/v1/tenant')).status);
  while ((await status()) !== 401) {
    if (Date.now() > deadline) throw new Error('the session in the second browser still answers');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await otherPage.goto(url('/console/journey'));
  await otherPage.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
}

/** Signs `who` in with a password in the second browser. */
async function otherSignIn(who: { email: string; password: string }): Promise<void> {
  await otherPage.goto(url('/console/sign-in'));
  await otherPage.getByLabel('E-mail', { exact: true }).fill(who.email);
  await otherPage.getByLabel('Password', { exact: true }).fill(who.password);
  await otherPage.getByRole('button', { name: 'Sign in' }).click();
  await otherPage.getByRole('heading', { level: 1, name: 'Your adoption journey' }).waitFor();
}

beforeAll(async () => {
  mail = await startSmtpSink({ port: 0 });
  stack = await startProcessStack('console', { SMTP_URL: mail.url }, { sso: true, console: true });
  owner.email = `owner@${domain()}`;
  ({ tenantId } = await stack.createTenantWithOwner(`Console Mills ${stack.namespace.slice(-6)}`, owner));
  await stack.setTier(tenantId, 'CORE');
  // A completed profile makes the manual kickoff milestone available.
  await stack.publish(event(tenantId, 'company.profile_completed', {}, new Date()));
  receiver = await startWebhookReceiver();
  chrome = await startChromium();
  await chrome.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.base });
  page = await chrome.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
}, 120_000);

afterAll(async () => {
  await other?.close();
  await chrome?.close();
  await stack?.stop();
  await mail?.stop();
  await receiver?.close();
});

describe('the web console in Chromium', () => {
  it('sign-in page: password, magic link, and one button per configured SSO provider', async () => {
    await page.goto(url('/console/'));
    await heading('Sign in').waitFor();
    expect(page.url()).toBe(url('/console/sign-in'));
    for (const key of SSO_KEYS) {
      await expect(page.locator(`a[data-sso="${key}"]`).getAttribute('href')).resolves.toBe(
        `/api/v1/auth/v2/sso/${key}/start?returnTo=%2Fconsole%2Fjourney`,
      );
    }
    expect(await page.locator('a[data-sso]').count()).toBe(SSO_KEYS.length);
    const csp = (await page.request.get(url('/console/sign-in'))).headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    await checkPage('sign-in');
  });

  it('sign-up page', async () => {
    await page.getByRole('link', { name: 'Create an account' }).click();
    await heading('Create your account').waitFor();
    await checkPage('sign-up');
  });

  it('password sign-in opens the journey: ladder, health, next best action, milestones, coverage, risks', async () => {
    await page.goto(url('/console/sign-in'));
    await page.getByLabel('E-mail', { exact: true }).fill(owner.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That e-mail and password do not match an account.').waitFor();
    // The second try by keyboard only: the fields in tab order, Enter submits.
    await page.getByLabel('E-mail', { exact: true }).focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(owner.password);
    await page.keyboard.press('Enter');
    await heading('Your adoption journey').waitFor();
    expect(page.url()).toBe(url('/console/journey'));
    await expect(page.getByTestId('tenant-name').textContent()).resolves.toContain('CORE');
    // The first Tab on a signed-in page reaches the skip link.
    await page.keyboard.press('Tab');
    await expect(page.locator(':focus').textContent()).resolves.toBe('Skip to content');
    await expect(page.locator('.ladder [aria-current="step"]').textContent()).resolves.toContain('Onboarded');
    await page.getByTestId('health').waitFor();
    await page.getByTestId('next-best-action').waitFor();
    await page.locator('[data-milestone="company_profile_completed"][data-status="DONE"]').waitFor();
    expect(await page.locator('[data-milestone]').count()).toBeGreaterThan(10);
    expect(await page.locator('.coverage .cell').count()).toBeGreaterThan(0);
    await page.getByRole('heading', { name: 'Open risk signals' }).waitFor();
    const cookies = await chrome.context.cookies(stack.base);
    expect(cookies.map((c) => c.name).sort()).toEqual(expect.arrayContaining(['svc_csrf', 'svc_session']));
    await checkPage('journey');
  });

  it('the journey updates live when a milestone completes: the events feed as server-sent events, no reload', async () => {
    await page.locator('[data-testid="live-updates"][data-live="true"]').waitFor();
    await page.evaluate(() => void ((globalThis as { notReloaded?: boolean }).notReloaded = true));
    await page.locator('[data-milestone="first_product_created"]:not([data-status="DONE"])').waitFor();
    await stack.publish(
      event(tenantId, 'product.created', { productId: `live-${randomUUID()}` }, new Date()),
    );
    await page.locator('[data-milestone="first_product_created"][data-status="DONE"]').waitFor();
    await page.getByText('Just completed: First product created.').waitFor();
    // The milestones completed before the page opened (the company profile) were not announced.
    await expect(page.getByText(/^Just completed: /).count()).resolves.toBe(1);
    await expect(
      page.evaluate(() => (globalThis as { notReloaded?: boolean }).notReloaded === true),
    ).resolves.toBe(true);
    await checkPage('journey-live');
  });

  it('completes a manual milestone with an evidence reference; a stale version is the 409 the page handles', async () => {
    const kickoff = page.locator('[data-milestone="kickoff_call_held"]');
    await kickoff.getByRole('button', { name: 'Mark as done' }).waitFor();
    // Someone else moves the journey after the page loaded it: the page's version is stale.
    const before = await stateVersion();
    // An event that completes no milestone (the second product of ten): one that did would reach the
    // page live (milestone.completed on the events feed) and reload it before the click.
    await stack.publish(
      event(tenantId, 'product.created', { productId: `stale-${randomUUID()}` }, new Date()),
    );
    // Polled from here: the stored version must have moved before the click (the batched consumer
    // applies the event some hundred milliseconds later, not at once).
    const deadline = Date.now() + WAIT_MS;
    while ((await stateVersion()) <= before) {
      if (Date.now() > deadline) throw new Error(`the journey stayed at version ${before}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await kickoff.getByLabel(/Evidence reference/).fill('crm:call-123');
    await kickoff.getByRole('button', { name: 'Mark as done' }).click();
    await page.getByText(/The journey changed while you were looking at it \(409\)/).waitFor();
    await kickoff.getByLabel(/Evidence reference/).fill('crm:call-123');
    await kickoff.getByRole('button', { name: 'Mark as done' }).click();
    await page.locator('[data-milestone="kickoff_call_held"][data-status="DONE"]').waitFor();
  });

  it('refreshes silently: with the 15-minute session cookie gone, a page still loads and the cookie is back', async () => {
    await chrome.context.clearCookies({ name: 'svc_session' });
    const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/v2/refresh'), {
      timeout: WAIT_MS,
    });
    await page.getByRole('link', { name: 'Usage' }).click();
    expect((await refreshed).status()).toBe(204);
    await heading('Usage and limits').waitFor();
    await page.getByRole('progressbar').first().waitFor();
    const names = (await chrome.context.cookies(stack.base)).map((c) => c.name);
    expect(names).toContain('svc_session');
  });

  it('success plan: created by the OWNER, then renewed', async () => {
    await page.getByRole('link', { name: 'Success plan' }).click();
    await heading('Success plan').waitFor();
    await page.getByLabel('Title').fill('Go live with our first partners');
    await page.getByLabel('Objective').fill('Hold the kickoff');
    await page.getByRole('checkbox', { name: 'Kickoff call held' }).check();
    await checkPage('plan-create');
    await page.getByRole('button', { name: 'Create plan' }).click();
    await page.getByTestId('plan-status').waitFor();
    await expect(page.getByTestId('plan-status').textContent()).resolves.toContain('Active');
    await page.getByRole('button', { name: 'Renew plan' }).click();
    await page.getByText('Plan renewed: the objectives were carried forward.').waitFor();
    await page.getByText('renewed from an earlier plan').waitFor();
    await checkPage('plan');
  });

  it('usage: every limit with a bar, the rate limits with reset times, the upgrade context', async () => {
    await page.getByRole('link', { name: 'Usage' }).click();
    await heading('Usage and limits').waitFor();
    await page.getByRole('progressbar').first().waitFor();
    expect(await page.getByRole('progressbar').count()).toBeGreaterThanOrEqual(3);
    await page
      .getByText(/^Resets /)
      .first()
      .waitFor();
    await page.getByLabel('What would an upgrade give me for').selectOption('TRACEABILITY');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByTestId('upgrade-prompt').waitFor();
    await checkPage('usage');
  });

  it('usage: a 30-day chart per key from the real history, readable labels, a table behind each chart', async () => {
    // Real history: product events counted by entitlements' consumer write today's points.
    const before = await historyLast('MAX_ACTIVE_PRODUCTS');
    const now = new Date();
    for (const id of ['h1', 'h2', 'h3']) {
      await stack.publish(event(tenantId, 'product.created', { productId: `${id}-${randomUUID()}` }, now));
    }
    await stack.publish(event(tenantId, 'import.completed', { importId: randomUUID() }, now, { rows: 120 }));
    await waitFor(
      'the new products in the history',
      async () => (await historyLast('MAX_ACTIVE_PRODUCTS')) === before + 3,
      {
        timeoutMs: WAIT_MS,
        intervalMs: 200,
      },
    );
    await page.reload();
    await heading('Usage and limits').waitFor();
    const products = page.getByTestId('usage-chart-MAX_ACTIVE_PRODUCTS');
    await products.waitFor();
    expect(await page.locator('figure.chart').count()).toBe(6);
    await page.getByText('Active products', { exact: true }).first().waitFor();
    await page.getByText('API requests today', { exact: true }).waitFor();
    expect(await page.getByText('Max active products').count()).toBe(0);
    // The chart is an image with a name and a description; its numbers are a table behind it.
    const svg = products.getByRole('img', { name: 'Active products, daily' });
    await svg.waitFor();
    await products.getByText('Show the numbers').click();
    const rows = products.locator('tbody tr');
    expect(await rows.count()).toBe(30);
    expect(await rows.last().locator('td').textContent()).toBe(String(before + 3));
    const bulk = page.getByTestId('usage-chart-BULK_UPLOAD_ROWS_MONTH');
    await bulk.getByText('Show the numbers').click();
    expect(Number(await bulk.locator('tbody tr').last().locator('td').textContent())).toBeGreaterThanOrEqual(
      120,
    );
    await checkPage('usage-history');
  });

  it('API access: a client created, its secret shown once and used for POST /oauth/token, rotated, deleted', async () => {
    await page.getByRole('link', { name: 'API access' }).click();
    await heading('API access').waitFor();
    await page.getByLabel('Name').fill('ERP sync');
    await page.getByRole('checkbox', { name: 'products:read' }).check();
    const created = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url().endsWith('/api/v1/oauth/clients'),
      { timeout: WAIT_MS },
    );
    await page.getByRole('button', { name: 'Create client' }).click();
    const csrf = (await chrome.context.cookies(stack.base)).find((c) => c.name === 'svc_csrf')?.value;
    expect(csrf).toBeTruthy();
    expect((await created).headers()['x-csrf-token']).toBe(csrf);
    const clientId = (await page.getByTestId('client-id').textContent()) ?? '';
    const secret = (await page.getByTestId('client-secret').textContent()) ?? '';
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    await expect(
      page.evaluate(() =>
        (navigator as unknown as { clipboard: { readText(): Promise<string> } }).clipboard.readText(),
      ),
    ).resolves.toBe(secret);
    const token = (clientSecret: string) =>
      fetch(url('/api/v1/oauth/token'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: clientSecret,
        }),
        signal: AbortSignal.timeout(WAIT_MS),
      });
    const issued = await token(secret);
    expect(issued.status).toBe(200);
    expect(await issued.json()).toMatchObject({
      token_type: 'Bearer',
      expires_in: 900,
      scope: 'products:read',
    });
    const row = page.locator(`tr[data-client="${clientId}"]`);
    await row.waitFor();
    await checkPage('api-access');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await expect(page.getByTestId('client-secret').count()).resolves.toBe(0);

    await row.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = (await page.getByTestId('client-secret').textContent()) ?? '';
    expect(rotated).not.toBe(secret);
    expect((await token(secret)).status).toBe(401);
    expect((await token(rotated)).status).toBe(200);

    await row.getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await token(rotated)).status).toBe(401);
  });

  it('team: a sign-up from a gated domain lands on "pending approval", and the owner approves it', async () => {
    const gated = `gated-${domain()}`;
    await stack.claimJoinDomain(tenantId, gated);
    const joiner = `joiner@${gated}`;
    const since = mail.messages.length;
    const signup = await fetch(url('/api/v1/auth/v2/signup'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: joiner, companyName: 'Ignored', firstName: 'Jo', lastName: 'Iner' }),
      signal: AbortSignal.timeout(WAIT_MS),
    });
    expect(signup.status).toBe(200);
    const link = await mailedLink(joiner, since);
    const landing = await chrome.newPage();
    await landing.goto(link);
    await landing.locator('[data-outcome="pending-approval"]').waitFor();
    expect(new URL(landing.url()).hash).toBe('');
    const previous = page;
    page = landing;
    await checkPage('magic-link-pending-approval');
    page = previous;
    await landing.close();

    await page.getByRole('link', { name: 'Team' }).click();
    await heading('Team').waitFor();
    await page.locator(`[data-request="${joiner}"]`).waitFor();
    await checkPage('team');
    await page.getByRole('button', { name: `Approve ${joiner}` }).click();
    await page.getByText(`${joiner} can now sign in with a sign-in link.`).waitFor();
    await page.getByText('No one is waiting to join.').waitFor();
  });

  it('team: the OWNER invites by e-mail; the mailed link is accepted in another browser; the member is listed', async () => {
    // Supplier Free allows 3 users: the owner and the joiner approved above hold two seats.
    await stack.setTier(tenantId, 'SUPPLIER_FREE');
    invitee.email = `invitee@${domain()}`;
    await page.goto(url('/console/team'));
    await heading('Team').waitFor();
    await seatsRead('2 of 3 users');
    await memberRow(owner.email, '[data-role="OWNER"][data-status="ACTIVE"]').waitFor();
    const link = await invite(invitee.email, 'MEMBER');
    // A member's address is refused with its code in words.
    await page.getByLabel('E-mail address').fill(owner.email);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(/\(ALREADY_MEMBER\)/).waitFor();
    await checkPage('team-invitations');

    other = await startChromium();
    otherPage = await other.newPage();
    otherPage.on('dialog', (dialog) => void dialog.accept());
    await acceptAsNewAccount(link, invitee, 'accept-invitation');
    await checkPage('accept-invitation-joined', otherPage);
    await otherPage.getByRole('link', { name: 'Open the console' }).click();
    await otherPage.getByRole('heading', { level: 1, name: 'Your adoption journey' }).waitFor();
    // A MEMBER opening the managers' pages is told who manages them, not shown a bare refusal.
    await otherPage.getByRole('link', { name: 'Webhooks' }).click();
    await otherPage.getByText(/^Webhooks are managed by your company's Owners and Admins\./).waitFor();
    await checkPage('webhooks-member', otherPage);
    await otherPage.getByRole('link', { name: 'Audit log' }).click();
    await otherPage
      .getByText(/^The audit log and its exports are managed by your company's Owners and Admins\./)
      .waitFor();
    // A used link is spent.
    await otherPage.goto(link);
    await otherPage.locator('[data-outcome="invalid-or-expired"]').waitFor();
    await checkPage('accept-invitation-invalid', otherPage);

    await page.reload();
    await memberRow(invitee.email, '[data-role="MEMBER"][data-status="ACTIVE"]').waitFor();
    await seatsRead('3 of 3 users');
    await page.getByText('No invitation is waiting for an answer.').waitFor();
    await checkPage('team-members');
  });

  it('team: the OWNER changes a role; demoting the last OWNER is refused (LAST_OWNER) and the select shows the role kept', async () => {
    await page.getByLabel(`Role of ${invitee.email}`).selectOption('ADMIN');
    await page.getByRole('button', { name: `Save role of ${invitee.email}` }).click();
    await memberRow(invitee.email, '[data-role="ADMIN"]').waitFor();
    await page.getByText(`${invitee.email} is now Admin.`).waitFor();

    // By keyboard: focus the select, pick Member, Tab to its Save button, Enter.
    await page.getByLabel(`Role of ${owner.email}`).focus();
    await page.getByLabel(`Role of ${owner.email}`).selectOption('MEMBER');
    await page.keyboard.press('Tab');
    await expect(page.locator(':focus').textContent()).resolves.toBe(`Save role of ${owner.email}`);
    await page.keyboard.press('Enter');
    await page.getByText(/\(LAST_OWNER\)/).waitFor();
    await memberRow(owner.email, '[data-role="OWNER"]').waitFor();
    await expect(page.getByLabel(`Role of ${owner.email}`).inputValue()).resolves.toBe('OWNER');
    await checkPage('team-last-owner');
  });

  it('team: deactivation signs the member out and frees the seat; reactivation at the limit is LIMIT_EXCEEDED with the upgrade; then it takes the freed seat', async () => {
    await page.getByRole('button', { name: `Deactivate ${invitee.email}` }).click();
    await memberRow(invitee.email, '[data-status="DEACTIVATED"]').waitFor();
    await seatsRead('2 of 3 users');
    await otherSignedOut();

    // The freed seat goes to someone else, invited and accepted in the second browser.
    const second = {
      email: `second@${domain()}`,
      firstName: 'Sid',
      lastName: 'Second',
      password: invitee.password,
    };
    const link = await invite(second.email, 'MEMBER');
    await other!.context.clearCookies();
    await acceptAsNewAccount(link, second);
    await page.reload();
    await memberRow(second.email, '[data-status="ACTIVE"]').waitFor();
    await seatsRead('3 of 3 users');

    await page.getByRole('button', { name: `Reactivate ${invitee.email}` }).click();
    await page.getByText(/Your plan \(Supplier Free\) allows 3 users — upgrade to Supplier Plus/).waitFor();
    await memberRow(invitee.email, '[data-status="DEACTIVATED"]').waitFor();
    await checkPage('team-seat-limit');

    await page.getByRole('button', { name: `Deactivate ${second.email}` }).click();
    await memberRow(second.email, '[data-status="DEACTIVATED"]').waitFor();
    await page.getByRole('button', { name: `Reactivate ${invitee.email}` }).click();
    await memberRow(invitee.email, '[data-status="ACTIVE"][data-role="ADMIN"]').waitFor();
    await page.getByText(`${invitee.email} is active again.`).waitFor();
    await seatsRead('3 of 3 users');
  });

  it("team: the OWNER ends all of a member's sessions, revokes an invitation and rejects a join request", async () => {
    await other!.context.clearCookies();
    await otherSignIn(invitee);
    await page.getByRole('button', { name: `End sessions of ${invitee.email}` }).click();
    await page
      .getByText(new RegExp(`^Ended [1-9]\\d* sessions? of ${invitee.email.replace(/\./g, '\\.')}\\.$`))
      .waitFor();
    // The access token in the cookie lives out its minutes; the refresh that follows is refused.
    await other!.context.clearCookies({ name: 'svc_session' });
    await otherPage.goto(url('/console/journey'));
    await otherPage.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();

    // The owner of another company is invited: the page asks to confirm the move, which the API
    // refuses while that account owns its company; the invitation is then revoked.
    const elsewhere = { ...owner, email: `elsewhere@other-${domain()}`, firstName: 'Elsa' };
    await stack.createTenantWithOwner(`Elsewhere ${stack.namespace.slice(-6)}`, elsewhere);
    const link = await invite(elsewhere.email, 'ADMIN');
    await otherPage.goto(link);
    await otherPage.locator('[data-outcome="invitation-ready"]').waitFor();
    await otherPage.getByText(`An account for ${elsewhere.email} already exists.`).waitFor();
    await otherPage.getByRole('checkbox', { name: /^Link my account/ }).check();
    await checkPage('accept-invitation-link', otherPage);
    await otherPage.getByRole('button', { name: /^Join / }).click();
    await otherPage.getByText(/\(ACCOUNT_OWNS_TENANT\)/).waitFor();

    await page.getByRole('button', { name: `Revoke the invitation to ${elsewhere.email}` }).click();
    await page.locator(`[data-invitation="${elsewhere.email}"]`).waitFor({ state: 'detached' });
    await page.getByText(`The invitation to ${elsewhere.email} is revoked.`).waitFor();
    await otherPage.goto(link);
    await otherPage.locator('[data-outcome="invalid-or-expired"]').waitFor();

    const gated = `gated-${domain()}`;
    const asker = `asker@${gated}`;
    const since = mail.messages.length;
    const signup = await fetch(url('/api/v1/auth/v2/signup'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: asker, companyName: 'Ignored', firstName: 'Ash', lastName: 'Asker' }),
      signal: AbortSignal.timeout(WAIT_MS),
    });
    expect(signup.status).toBe(200);
    await otherPage.goto(await mailedLink(asker, since));
    await otherPage.locator('[data-outcome="pending-approval"]').waitFor();
    await page.reload();
    await page.getByRole('button', { name: `Reject ${asker}` }).click();
    await page.getByText(`The request of ${asker} is rejected.`).waitFor();
    await page.getByText('No one is waiting to join.').waitFor();
    await expect(memberRow(asker).count()).resolves.toBe(0);
  });

  it('account: your sessions with this device marked; one ended, then all the others', async () => {
    // The owner on two more devices: the second browser and a script.
    await other!.context.clearCookies();
    await otherSignIn(owner);
    const script = await fetch(url('/api/v1/auth/v2/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stack.base, 'user-agent': 'nightly-export/2.1' },
      body: JSON.stringify({ email: owner.email, password: owner.password }),
      signal: AbortSignal.timeout(WAIT_MS),
    });
    expect(script.status).toBe(200);

    await page.getByRole('link', { name: 'Account' }).click();
    await heading('Your account').waitFor();
    const rows = page.locator('tr[data-session]');
    await page.locator('tr[data-session]', { hasText: 'nightly-export/2.1' }).waitFor();
    expect(await rows.count()).toBeGreaterThanOrEqual(3);
    const current = page.locator('tr[data-current="true"]');
    await expect(current.count()).resolves.toBe(1);
    await expect(current.textContent()).resolves.toContain('This device');
    await checkPage('account');

    const scripted = page.locator('tr[data-session]', { hasText: 'nightly-export/2.1' });
    await scripted.getByRole('button', { name: /^End session/ }).click();
    await scripted.waitFor({ state: 'detached' });
    await page.getByText('The session on nightly-export/2.1 has ended.').waitFor();
    // Focus did not fall to the document when the row went.
    await expect(page.locator(':focus').textContent()).resolves.toBe('Your sessions');

    await page.getByRole('button', { name: 'End all other sessions' }).click();
    await page.getByText(/^Ended [1-9]\d* other sessions?\. Only this device is signed in\.$/).waitFor();
    await page.getByText('You are signed in on this device only.').waitFor();
    await expect(rows.count()).resolves.toBe(1);
    await expect(current.count()).resolves.toBe(1);
    await other!.context.clearCookies({ name: 'svc_session' });
    await otherPage.goto(url('/console/journey'));
    await otherPage.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    // This device is still signed in.
    await page.reload();
    await heading('Your account').waitFor();
    await page.locator('tr[data-current="true"]').waitFor();

    // The second browser saw only the refusals its steps provoked: sessions ended, links spent.
    const expected = [
      /\/api\/v1\/tenant: Failed to load resource: .* 401 /,
      /\/api\/v1\/auth\/v2\/refresh: Failed to load resource: .* 401 /,
      /\/api\/v1\/auth\/v2\/invitations\/inspect: Failed to load resource: .* 400 /,
      /\/api\/v1\/auth\/v2\/invitations\/accept: Failed to load resource: .* 409 /,
      /\/api\/v1\/tenant\/webhooks: Failed to load resource: .* 403 /,
      /\/api\/v1\/tenant\/audit-events\?[^ ]*: Failed to load resource: .* 403 /,
      // The journey's event stream ends when the session is ended; its reconnect is refused.
      /\/api\/v1\/tenant\/events\?[^ ]*: Failed to load resource: .* 401 /,
    ];
    expect(other!.errors.filter((error) => !expected.some((e) => e.test(error)))).toEqual([]);
    await other!.close();
    other = undefined;
  });

  it('webhooks: an endpoint added, its secret shown once (copy, "you won\'t see it again"), a signed test event, its attempts, replay, disable and enable', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await heading('Webhooks').waitFor();
    await page.getByText('No endpoint yet.').waitFor();
    const endpoint = `${receiver.url}/console-hook`;
    await page.getByLabel('Endpoint URL').fill(endpoint);
    await page.getByRole('checkbox', { name: /A milestone is completed/ }).check();
    await page.getByRole('checkbox', { name: /An API client is created/ }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByTestId('webhook-secret');
    await shown.waitFor();
    const secret = (await shown.textContent()) ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    await page.getByText(/you won't see it again/).waitFor();
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    await expect(
      page.evaluate(() =>
        (navigator as unknown as { clipboard: { readText(): Promise<string> } }).clipboard.readText(),
      ),
    ).resolves.toBe(secret);
    const row = page.locator(`tr[data-webhook="${endpoint}"]`);
    await row.waitFor();
    await checkPage('webhooks-secret');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await shown.waitFor({ state: 'detached' });
    // Once: a reload lists the endpoint, and the secret is nowhere on the page.
    await page.reload();
    await row.waitFor();
    await expect(page.locator('main').textContent()).resolves.not.toContain(secret);

    await page.getByRole('button', { name: `Send test event to ${endpoint}` }).click();
    await page.getByText(`A test event is on its way to ${endpoint}: see its deliveries.`).waitFor();
    const hook = () => receiver.received.filter((r) => r.path === '/console-hook');
    await waitFor('the test event at the receiver', () => hook().length > 0, {
      timeoutMs: WAIT_MS,
      intervalMs: 100,
    });
    const received = hook()[0]!;
    // The secret the page showed is the one that signs.
    const verified = await verifyWebhook(secret, received.headers, received.body);
    expect(verified.payload).toMatchObject({ type: 'webhook.test', tenantId });
    const delivered = page.locator('[data-delivery="webhook.test"][data-status="DELIVERED"]');
    await waitFor(
      'the delivery shown as delivered',
      async () => {
        if ((await delivered.count()) > 0) return true;
        await page.getByRole('button', { name: 'Refresh deliveries' }).click();
        return false;
      },
      { timeoutMs: WAIT_MS, intervalMs: 300 },
    );
    await delivered.getByRole('button', { name: /^Attempts of webhook\.test/ }).click();
    const attempt = page.locator('[data-attempts] tr[data-attempt="1"]');
    await attempt.waitFor();
    await expect(attempt.textContent()).resolves.toMatch(/HTTP 200.*\d+ ms/);
    await checkPage('webhooks-deliveries');

    const before = hook().length;
    await delivered.getByRole('button', { name: /^Replay webhook\.test/ }).click();
    await page.getByText('webhook.test is queued again, with the same webhook-id.').waitFor();
    await waitFor('the replayed event at the receiver', () => hook().length > before, {
      timeoutMs: WAIT_MS,
      intervalMs: 100,
    });
    const again = hook()[before]!;
    expect(again.headers['webhook-id']).toBe(received.headers['webhook-id']);

    await page.getByRole('button', { name: `Disable ${endpoint}` }).click();
    await page.locator(`tr[data-webhook="${endpoint}"][data-enabled="false"]`).waitFor();
    await page.getByRole('button', { name: `Send test event to ${endpoint}` }).click();
    await page.getByText(/\(ENDPOINT_DISABLED\)/).waitFor();
    await page.getByRole('button', { name: `Enable ${endpoint}` }).click();
    await page.locator(`tr[data-webhook="${endpoint}"][data-enabled="true"]`).waitFor();
    await checkPage('webhooks');
  });

  it('webhooks: rotation shows the new secret once; deletion is confirmed and leaves focus on the list', async () => {
    const endpoint = `${receiver.url}/console-hook`;
    const first = (await page.getByTestId('webhook-secret').count()) === 0;
    expect(first).toBe(true);
    await page.getByRole('button', { name: `Rotate secret of ${endpoint}` }).click();
    await page.getByText(/Secret rotated\. .*you won't see it again/).waitFor();
    await expect(page.getByTestId('webhook-secret').textContent()).resolves.toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('button', { name: `Delete ${endpoint}` }).click();
    await page.locator(`tr[data-webhook="${endpoint}"]`).waitFor({ state: 'detached' });
    await page.getByText(`The endpoint ${endpoint} is deleted.`).waitFor();
    await expect(page.locator(':focus').textContent()).resolves.toBe('Endpoints');
  });

  it('audit log: the webhook changes listed, filtered by action, and downloaded as CSV with the session', async () => {
    // More entries than a page holds (50): an endpoint switched off and on 50 times through the API.
    const paging = await page.evaluate(async (target) => {
      const cookie = (globalThis as unknown as { document: { cookie: string } }).document.cookie;
      const csrf = decodeURIComponent(/(?:^|; )svc_csrf=([^;]*)/.exec(cookie)?.[1] ?? '');
      const send = (method: string, path: string, body: unknown) =>
        fetch(`/api/v1${path}`, {
          method,
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
          body: JSON.stringify(body),
        });
      const created = await send('POST', '/tenant/webhooks', { url: target, types: ['tier.changed'] });
      const { data } = (await created.json()) as { data: { webhook: { id: string } } };
      const statuses = [created.status];
      for (let i = 0; i < 50; i += 1)
        statuses.push(
          (await send('PATCH', `/tenant/webhooks/${data.webhook.id}`, { enabled: i % 2 === 1 })).status,
        );
      return statuses;
    }, `${receiver.url}/paging`);
    expect(new Set(paging)).toEqual(new Set([201, 200]));
    await page.getByRole('link', { name: 'Audit log' }).click();
    await heading('Audit log').waitFor();
    const rows = page.locator('tr[data-audit]');
    await page.getByRole('button', { name: 'Load more' }).waitFor();
    await expect(rows.count()).resolves.toBe(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    await waitFor('the second page below the first', async () => (await rows.count()) > 50, {
      timeoutMs: WAIT_MS,
      intervalMs: 100,
    });
    // Two endpoints made: the page's (then deleted) and the one switched for paging.
    await expect(page.locator('tr[data-audit="webhook_endpoint.created"]').count()).resolves.toBe(2);
    await page.locator('tr[data-audit="webhook_endpoint.deleted"]').waitFor();
    // The owner made them (the service records the user's id; the e-mail is the producers' to add).
    await expect(
      page.locator('tr[data-audit="webhook_endpoint.created"]').first().textContent(),
    ).resolves.toContain('(user)');
    await checkPage('audit-log');

    await page.getByLabel('Action').fill('webhook_endpoint.deleted');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.locator('tr[data-audit="webhook_endpoint.created"]').first().waitFor({ state: 'detached' });
    await expect(page.locator('tr[data-audit]').count()).resolves.toBe(1);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('audit-events.csv');
    const csv = await readFile(await file.path(), 'utf8');
    expect(csv.split('\n')[0]).toMatch(/action/);
    expect(csv).toContain('webhook_endpoint.deleted');
    expect(csv).not.toContain('webhook_endpoint.created');

    // A range the API refuses is explained, not a blank page.
    await page.getByLabel('From', { exact: true }).fill('2020-01-01T00:00');
    await page.getByLabel('To', { exact: true }).fill('2026-01-01T00:00');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /400 days/ })
      .waitFor();
  });

  it('sign out clears the session; a magic link from the SMTP sink signs in; a used link is INVALID_OR_EXPIRED', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading('Sign in').waitFor();
    const names = (await chrome.context.cookies(stack.base)).map((c) => c.name);
    expect(names).not.toContain('svc_session');
    expect(names).not.toContain('svc_refresh');
    await page.goto(url('/console/journey'));
    await heading('Sign in').waitFor();

    const since = mail.messages.length;
    await page.getByLabel('E-mail for the link').fill(owner.email);
    await page.getByRole('button', { name: 'E-mail me a link' }).click();
    await page.getByText(/If an account exists for that address/).waitFor();
    const link = await mailedLink(owner.email, since);
    await page.goto(link);
    await page.locator('[data-outcome="signed-in"]').waitFor();
    await checkPage('magic-link-signed-in');
    await page.getByRole('link', { name: 'Open your journey' }).click();
    await heading('Your adoption journey').waitFor();

    await page.goto(link);
    await page.locator('[data-outcome="invalid-or-expired"]').waitFor();
    await checkPage('magic-link-invalid');
  });

  it('a new company through sign-up and its mailed link: the tenant is provisioned and signed in', async () => {
    await chrome.context.clearCookies();
    await page.goto(url('/console/sign-up'));
    const founder = `founder@new-${domain()}`;
    await page.getByLabel('Company name').fill('Fresh Fabrics');
    await page.getByLabel('First name').fill('Fern');
    await page.getByLabel('Last name').fill('Founder');
    await page.getByLabel('Work e-mail').fill(founder);
    const since = mail.messages.length;
    await page.getByRole('button', { name: 'Send me a confirmation link' }).click();
    await page.getByRole('status').filter({ hasText: /./ }).first().waitFor();
    await page.goto(await mailedLink(founder, since));
    await page
      .locator('[data-outcome="tenant-provisioned"]')
      .waitFor()
      .catch(async (error: Error) => {
        throw new Error(`${error.message}; the page says: ${await page.locator('main').textContent()}`);
      });
    await expect(page.locator('main').textContent()).resolves.toContain('Fresh Fabrics');
    await checkPage('magic-link-tenant-provisioned');
  });

  it.each(SSO_KEYS)(
    'single sign-on through the %s provider founds a company and opens its journey',
    async (key) => {
      await chrome.context.clearCookies();
      const provider = stack.ssoProviders.get(key)!;
      const sub = `sso-${key}-${randomUUID()}`;
      provider.addAccount({ sub, email: `${sub}@sso-${domain()}`, givenName: 'Sam', familyName: 'Sso' });
      await page.goto(url('/console/sign-in'));
      await page.locator(`a[data-sso="${key}"]`).click();
      // The provider's own login page, in the same browser: its session and the gateway's state cookie.
      await page.getByLabel('Account (subject or e-mail)').fill(sub);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await heading('Your adoption journey')
        .waitFor()
        .catch((error: Error) => {
          throw new Error(`${error.message}; the browser is at ${page.url()}`);
        });
      expect(page.url()).toBe(url('/console/journey'));
      await expect(page.getByTestId('tenant-name').textContent()).resolves.toContain('Sam');
      // The journey's own calls finish before the next test clears the cookies under them.
      await page.getByTestId('health').waitFor();
      await page.locator('[data-testid="live-updates"][data-live="true"]').waitFor();
    },
  );

  it('an SSO failure lands on the error page with its reason', async () => {
    await page.goto(url('/auth/sso/error?reason=invalid_state'));
    await heading('Single sign-on failed').waitFor();
    await page.getByText('The sign-in expired or was already used. Please start again.').waitFor();
    await checkPage('sso-error');
  });

  it('left no console error and no uncaught exception on any page', () => {
    // Chromium logs every 4xx answer to a fetch; these are the refusals the tests provoked on
    // purpose (a wrong password, a used link, a stale version, an expired session cookie) and the
    // page handled.
    const provoked = [
      /\/api\/v1\/auth\/v2\/login: Failed to load resource: .* 401 /,
      /\/api\/v1\/auth\/v2\/magic-link\/redeem: Failed to load resource: .* 400 /,
      /\/api\/v1\/tenant\/adoption\/milestones\/kickoff_call_held\/complete: Failed to load resource: .* 409 /,
      /\/api\/v1\/entitlements\/usage(\/history\?key=[A-Z_]+)?: Failed to load resource: .* 401 .*test: .*refreshes silently/,
      /\/api\/v1\/tenant\/invitations: Failed to load resource: .* 409 /,
      /\/api\/v1\/tenant\/members\/[^/ ]+: Failed to load resource: .* 409 /,
      /\/api\/v1\/tenant\/members\/[^/ ]+\/reactivate: Failed to load resource: .* 403 /,
      /\/api\/v1\/tenant\/webhooks\/[^/ ]+\/test: Failed to load resource: .* 409 /,
      /\/api\/v1\/tenant\/audit-events\?[^ ]*: Failed to load resource: .* 400 /,
    ];
    expect(chrome.errors.filter((error) => !provoked.some((expected) => expected.test(error)))).toEqual([]);
    expect(chrome.errors.length).toBeGreaterThanOrEqual(provoked.length);
  });
});
