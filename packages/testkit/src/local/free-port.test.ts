import { createServer } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { freeLoopbackPort } from './free-port.js';

describe('freeLoopbackPort', () => {
  it('hands out bindable ports below the ephemeral range, where outgoing connections never take them', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freeLoopbackPort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(15_000);
      expect(port).toBeLessThan(32_000);
    }
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(ports[0], '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });
});
