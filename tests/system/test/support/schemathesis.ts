import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Strategies for the document's own formats (tests/system/fuzz/formats.py). */
const FORMAT_HOOKS = join(REPO_ROOT, 'tests/system/fuzz/formats.py');
/** The gate's configuration: its few per-operation exceptions, each with its reason. */
const CONFIG = join(REPO_ROOT, 'tests/system/fuzz/schemathesis.toml');

/** The venv scripts/install-schemathesis.sh fills (TAP_SCHEMATHESIS_VENV overrides it there too). */
export const SCHEMATHESIS = join(
  process.env['TAP_SCHEMATHESIS_VENV'] ?? join(REPO_ROOT, '.infra/venv'),
  'bin/st',
);

/**
 * Every check schemathesis has: no 5xx, answers within the document (status, content type,
 * body, headers), schema-valid requests accepted and invalid ones refused, auth not ignored,
 * undeclared methods refused with Allow, and the stateful resource checks.
 */
export const FUZZ_CHECKS = 'all';

export interface FuzzRun {
  readonly exitCode: number;
  /** Test cases schemathesis generated and sent, one request each. */
  readonly requests: number;
  /** Operations schemathesis tested (of those the document lists). */
  readonly operations: { readonly selected: number; readonly tested: number };
  /** Failed checks and errors, as `title (count): operations` lines. */
  readonly failures: string[];
  readonly output: string;
  /** Where the report and schemathesis' full output are kept (for reproducing a failure). */
  readonly dir: string;
}

export interface FuzzOptions {
  readonly base: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Generated examples per operation and phase (schemathesis' --max-examples). */
  readonly maxExamples: number;
  /** A hung run is killed after this many seconds and fails the gate. */
  readonly killAfterS: number;
  readonly seed: number;
  /** More `st run` arguments (operation filters). */
  readonly extraArgs?: readonly string[];
}

/** The parts of schemathesis' JSON run report (`--report json`) the gate reads. */
interface RunReport {
  exit_code: number;
  test_cases: { generated: number; with_failures: number; errored: number };
  operations: { selected: number; tested: number; errored: number };
  failures: { title: string; count: number; operations: string[] }[];
  errors: { title: string; count: number }[];
}

/**
 * One bounded schemathesis run against `base` (the document at /api/v1/openapi.json), every
 * operation, positive and negative data. Counts and failures come from its JSON run report.
 */
export async function runSchemathesis(options: FuzzOptions): Promise<FuzzRun> {
  if (!existsSync(SCHEMATHESIS))
    throw new Error(`${SCHEMATHESIS} is missing: run bash scripts/install-schemathesis.sh`);
  const dir = mkdtempSync(join(tmpdir(), 'fuzz-'));
  const report = join(dir, 'report.json');
  const args = [
    '--config-file',
    CONFIG,
    'run',
    `${options.base}/api/v1/openapi.json`,
    // The document's paths are relative to its server, /api/v1.
    '--url',
    `${options.base}/api/v1`,
    '--checks',
    FUZZ_CHECKS,
    '--max-examples',
    String(options.maxExamples),
    '--seed',
    String(options.seed),
    // One worker: with two, CPython 3.11's ast module (Hypothesis parses its own lambdas) now
    // and then raised "AST constructor recursion depth mismatch", a tool error, not the API's.
    '--workers',
    '1',
    '--phases',
    'examples,coverage,fuzzing',
    '--request-timeout',
    '10',
    '--continue-on-failure',
    '--suppress-health-check',
    'all',
    '--no-color',
    '--report',
    'json',
    '--report-json-path',
    report,
    // Credentials are the mode's (-H) or none: generated ones would send a bearer token and the
    // session cookie together, which is 400 invalid_request by design (docs/security.md §3;
    // tests/system/test/hostile/ambiguous-credentials.test.ts holds that answer).
    '--generation-with-security-parameters',
    'false',
    ...Object.entries(options.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(SCHEMATHESIS, args, {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    // How to generate the gateway's own formats (future-date-time).
    env: { ...process.env, SCHEMATHESIS_HOOKS: FORMAT_HOOKS },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // A hard stop: a hung run fails the gate instead of the whole suite.
  const guard = setTimeout(() => child.kill('SIGKILL'), options.killAfterS * 1_000);
  const exitCode = await new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 137)));
  clearTimeout(guard);
  writeFileSync(join(dir, 'output.txt'), output);
  return { exitCode, output, dir, ...readReport(report) };
}

function readReport(path: string): Omit<FuzzRun, 'exitCode' | 'output' | 'dir'> {
  if (!existsSync(path)) {
    return { requests: 0, operations: { selected: 0, tested: 0 }, failures: ['no report written'] };
  }
  const report = JSON.parse(readFileSync(path, 'utf8')) as RunReport;
  return {
    requests: report.test_cases.generated,
    operations: { selected: report.operations.selected, tested: report.operations.tested },
    failures: [
      ...report.failures.map((f) => `${f.title} (${f.count}): ${f.operations.join(', ')}`),
      ...report.errors.map((e) => `error: ${e.title} (${e.count})`),
    ],
  };
}
