import { credentials, type Client, type ChannelOptions } from '@grpc/grpc-js';

const CHANNEL_OPTIONS: ChannelOptions = {
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 5_000,
  // Retries UNAVAILABLE transparently (a peer restarting) within the call's deadline.
  'grpc.enable_retries': 1,
};

/** A client of one service at `address` (host:port), over plaintext inside the cluster network. */
export function createClient<C extends Client>(
  Ctor: new (address: string, creds: ReturnType<typeof credentials.createInsecure>, options: ChannelOptions) => C,
  address: string,
): C {
  return new Ctor(address, credentials.createInsecure(), CHANNEL_OPTIONS);
}
