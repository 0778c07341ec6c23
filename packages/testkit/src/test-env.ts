/** The infrastructure URLs a test worker got from the jest global setup (or the caller's environment). */
export function infraUrls(): { mongoUrl: string; natsUrl: string; redisUrl: string } {
  const read = (name: string): string => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set: add @tap/testkit's jest globalSetup to this package`);
    return value;
  };
  return { mongoUrl: read('MONGO_URL'), natsUrl: read('NATS_URL'), redisUrl: read('REDIS_URL') };
}
