import type { Client } from '@grpc/grpc-js';
import type { RpcAllowlist } from '@tap/grpc-kit';

/**
 * One client object over several identities' clients of the same service: each method goes through
 * the first client (in `clients`' order) whose identity the allowlist admits for it. For test beds
 * and tools that play both the gateway and the operator against one service; the returned object
 * is `clients`' first client for everything but the methods.
 */
export function clientPerCaller<C extends Client>(
  clients: ReadonlyArray<readonly [identity: string, client: C]>,
  allowlist: RpcAllowlist,
): C {
  const first = clients[0];
  if (!first) throw new Error('clientPerCaller: no client');
  const service = (first[1].constructor as { service?: Record<string, { path?: string }> }).service ?? {};
  return new Proxy(first[1], {
    get(target, property, receiver) {
      const path = typeof property === 'string' ? service[property]?.path : undefined;
      if (path === undefined) return Reflect.get(target, property, receiver) as unknown;
      const chosen = clients.find(([identity]) => allowlist[path]?.includes(identity))?.[1] ?? target;
      const method = Reflect.get(chosen, property) as (...args: unknown[]) => unknown;
      return method.bind(chosen);
    },
  });
}
