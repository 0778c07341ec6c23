/** Jest globalTeardown: stops what globalSetup started; nothing is left running. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.__tapInfrastructure?.stop();
  globalThis.__tapInfrastructure = undefined;
}
