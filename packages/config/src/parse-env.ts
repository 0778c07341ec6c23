import { cleanEnv, EnvMissingError, type CleanedEnv, type ValidatorSpec } from 'envalid';

/** One problem with one environment variable. */
export interface ConfigIssue {
  readonly variable: string;
  readonly problem: string;
}

/** Thrown by `parseEnv` with every bad variable at once, so an operator fixes them in one go. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code = 'CONFIG_INVALID';
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    super(issues.map(formatIssue).join('; '));
    this.issues = issues;
  }
}

export function formatIssue(issue: ConfigIssue): string {
  return `${issue.variable} ${issue.problem}`;
}

type Specs = Record<string, ValidatorSpec<unknown>>;

/**
 * Validates `env` against `specs` (envalid validators), returning typed, frozen values or
 * throwing one ConfigError that lists every bad variable.
 */
export function parseEnv<S extends Specs>(
  env: Readonly<Record<string, string | undefined>>,
  specs: S,
): CleanedEnv<S> {
  return cleanEnv(env, specs, {
    reporter: ({ errors }) => {
      const issues = Object.entries(errors)
        .filter((entry): entry is [string, Error] => entry[1] instanceof Error)
        .map(([variable, error]) => ({
          variable,
          problem: error instanceof EnvMissingError ? 'is required' : error.message,
        }));
      if (issues.length > 0) throw new ConfigError(issues);
    },
  });
}
