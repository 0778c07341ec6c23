import type { AuthStrategy } from './strategy.js';

/** Public operations only (sign-in, the OpenAPI document): nothing added, nothing renewed. */
export function noAuth(): AuthStrategy {
  return {
    async authorize() {
      return undefined;
    },
    async renew() {
      return false;
    },
  };
}
