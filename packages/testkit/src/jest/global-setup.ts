import { startInfrastructure } from '../start-infrastructure.js';
import type { Infrastructure } from '../infrastructure.js';

declare global {
  var __tapInfrastructure: Infrastructure | undefined;
}

/**
 * Jest globalSetup: starts (or takes from the environment) the shared servers once per jest run
 * and hands their URLs to the test workers through the environment they inherit.
 */
export default async function globalSetup(): Promise<void> {
  const infra = await startInfrastructure();
  process.env['MONGO_URL'] = infra.mongoUrl;
  process.env['NATS_URL'] = infra.natsUrl;
  process.env['REDIS_URL'] = infra.redisUrl;
  globalThis.__tapInfrastructure = infra;
}
