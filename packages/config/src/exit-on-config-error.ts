import { ConfigError, formatIssue } from './parse-env.js';

/** Exit code for a configuration error (EX_CONFIG from sysexits.h). */
export const EXIT_CONFIG = 78;

/**
 * For main.ts: runs `load`, and on a ConfigError prints one line per bad variable to stderr and
 * exits, before anything connects or listens.
 */
export function loadConfigOrExit<T>(service: string, load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const issue of error.issues)
      process.stderr.write(`${service}: invalid configuration: ${formatIssue(issue)}\n`);
    process.exit(EXIT_CONFIG);
  }
}
