// The reader lives in @tap/service-auth: every service that accepts a user token checks it.
export { redisSessionRevocations } from '@tap/service-auth';
export type { SessionRevocations } from '@tap/service-auth';
