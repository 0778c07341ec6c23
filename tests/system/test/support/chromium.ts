import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from '@jest/globals';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium (scripts/install-chromium.sh installs it). */
export const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Screenshots of every page, kept as test artefacts (gitignored). */
export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'artifacts', 'console');
/**
 * Every wait in a browser test is bounded by this: generous, because `npm test` runs other
 * suites beside it on two cores; a page that works answers in well under a second.
 */
export const WAIT_MS = 30_000;

export interface ChromiumSession {
  readonly context: BrowserContext;
  /** Console errors and uncaught exceptions of every page so far ("<resource or page url>: <text> (page; test)"). */
  readonly errors: string[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Chromium with a fresh profile (user-data-dir in a temporary folder, removed on close), driven
 * by playwright-core. Every page it opens reports console errors and page errors into `errors`.
 */
export async function startChromium(): Promise<ChromiumSession> {
  const profile = await mkdtemp(join(tmpdir(), 'tap-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    headless: true,
    viewport: { width: 1280, height: 900 },
    timeout: 60_000,
  });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (message) => {
      // A failed resource names itself in the location; a script error names its page.
      if (message.type() === 'error')
        errors.push(
          `${message.location().url || page.url()}: ${message.text()} (page ${page.url()}; test: ${expect.getState().currentTestName ?? '-'})`,
        );
    });
    page.on('pageerror', (error) =>
      errors.push(
        `${page.url()}: uncaught ${error.message} (test: ${expect.getState().currentTestName ?? '-'})`,
      ),
    );
  };
  context.on('page', watch);
  for (const page of context.pages()) watch(page);
  await mkdir(ARTIFACTS, { recursive: true });
  return {
    context,
    errors,
    newPage: () => context.newPage(),
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * axe-core run in the page: the serious and critical violations (empty when accessible).
 * The script is evaluated through the DevTools protocol, so the page's CSP stays as served.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const source = await axeSource;
  await page.evaluate(source);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** A full-page screenshot at laptop width and one at phone width. */
export async function screenshots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(ARTIFACTS, `${name}-phone.png`), fullPage: true });
  // Readable on a phone: nothing wider than the screen (no sideways scrolling of the page).
  const width = await page.evaluate(
    () =>
      (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
        .documentElement.scrollWidth,
  );
  if (width > 390) throw new Error(`${name} is ${width}px wide at a 390px phone width`);
  await page.setViewportSize({ width: 1280, height: 900 });
}
