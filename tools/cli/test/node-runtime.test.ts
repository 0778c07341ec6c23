import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';

/**
 * Issue #12: "Node 24 LTS everywhere". The scripts put the project's Node first in PATH
 * (scripts/node-env.sh); the CLI's `stack` and the system tests spawn services with
 * process.execPath, so the Node running jest is the Node the services run on. Under an older
 * Node (a script that forgot to source node-env.sh, a turbo task that lost PATH) this fails.
 */
describe('the Node the suite and the local stack run on', () => {
  const root = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    engines: { node: string };
  };

  it('is at least the major that package.json engines asks for (24)', () => {
    const wanted = Number(/>=\s*(\d+)/.exec(root.engines.node)?.[1]);
    expect(wanted).toBeGreaterThanOrEqual(24);
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(wanted);
  });

  it('is the version scripts/node-env.sh pins when the machine has an older node', () => {
    const pinned = /^TAP_NODE_VERSION="([\d.]+)"$/m.exec(
      readFileSync(new URL('../../../scripts/node-env.sh', import.meta.url), 'utf8'),
    )?.[1];
    expect(pinned).toMatch(/^24\.\d+\.\d+$/);
    if (process.execPath.includes('/.infra/node/')) expect(process.version).toBe(`v${pinned}`);
  });
});
