import type { Client } from '@grpc/grpc-js';
import { Metadata } from '@grpc/grpc-js';
import type { RpcAllowlist } from '@tap/grpc-kit';
import { OPERATOR_SERVICE } from './operator.js';

function carriesOperatorCredential(arg: unknown): boolean {
  if (!(arg instanceof Metadata)) return false;
  const header = arg.get('authorization')[0];
  return typeof header === 'string' && header.startsWith('Operator ');
}

/**
 * One client object over several identities' clients of the same service: each method goes through
 * the first client (in `clients`' order) whose identity the allowlist admits for it. For test beds
 * and tools that play both the gateway and the operator against one service (a call carrying the
 * operator credential goes through the operator's client when it may); the returned object
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
      const admitted = clients.filter(([identity]) => allowlist[path]?.includes(identity));
      return (...args: unknown[]) => {
        // A call carrying the operator credential goes out with the operator's certificate:
        // services honour the credential only from that peer (docs/security.md §6).
        const asOperator = args.some(carriesOperatorCredential)
          ? admitted.find(([identity]) => identity === OPERATOR_SERVICE)
          : undefined;
        const chosen = (asOperator ?? admitted[0])?.[1] ?? target;
        const method = Reflect.get(chosen, property) as (...args: unknown[]) => unknown;
        return method.apply(chosen, args);
      };
    },
  });
}
