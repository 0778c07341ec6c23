import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { bareHost } from '../domain/endpoint-url.js';
import type { WebhookSender, SendOutcome } from '../operations/ports.js';
import { resolveTarget } from './address-guard.js';

/** How much of a receiver's answer is read (and then dropped): only the status matters. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Sends one webhook: resolves the host itself and connects to the checked address (the
 * request's `lookup` is pinned to it, so a DNS answer cannot change between check and connect),
 * never follows a redirect (a 3xx is a failed attempt), and gives up after `timeoutMs`.
 */
export function httpWebhookSender(options: {
  readonly timeoutMs: number;
  readonly devAllowedHosts: readonly string[];
  readonly userAgent?: string;
}): WebhookSender {
  return {
    async send(url, headers, body): Promise<SendOutcome> {
      const target = new URL(url);
      const host = bareHost(target.hostname);
      const resolved = await resolveTarget(host, options.devAllowedHosts);
      if (!resolved.ok)
        return { ok: false, error: resolved.reason === 'FORBIDDEN' ? 'ADDRESS_FORBIDDEN' : 'DNS_FAILED' };
      const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
        if ((lookupOptions as { all?: boolean }).all)
          (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
            { address: resolved.address, family: resolved.family },
          ]);
        else callback(null, resolved.address, resolved.family);
      };
      const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
      return new Promise<SendOutcome>((resolve) => {
        let settled = false;
        const finish = (outcome: SendOutcome) => {
          if (settled) return;
          settled = true;
          resolve(outcome);
        };
        const req = request(
          target,
          {
            method: 'POST',
            lookup: pinned,
            timeout: options.timeoutMs,
            headers: {
              ...headers,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              'user-agent': options.userAgent ?? 'tap-webhooks/1',
            },
          },
          (res: IncomingMessage) => {
            let read = 0;
            res.on('data', (chunk: Buffer) => {
              read += chunk.length;
              if (read > MAX_RESPONSE_BYTES) res.destroy();
            });
            res.on('close', () => finish({ ok: true, status: res.statusCode ?? 0 }));
            res.on('error', () => finish({ ok: true, status: res.statusCode ?? 0 }));
          },
        );
        // The socket's idle timeout and an overall deadline: a receiver that trickles bytes is cut too.
        const deadline = setTimeout(() => {
          req.destroy();
          finish({ ok: false, error: 'TIMEOUT' });
        }, options.timeoutMs);
        req.on('timeout', () => {
          req.destroy();
          finish({ ok: false, error: 'TIMEOUT' });
        });
        req.on('error', (error: NodeJS.ErrnoException) => finish({ ok: false, error: networkError(error) }));
        req.on('close', () => clearTimeout(deadline));
        req.end(body);
      });
    },
  };
}

function networkError(error: NodeJS.ErrnoException): string {
  return /^[A-Z_]{3,32}$/.test(error.code ?? '') ? (error.code as string) : 'NETWORK_ERROR';
}
