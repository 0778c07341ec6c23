import { describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';

const read = (path: string) => readFile(new URL(`../${path}`, import.meta.url), 'utf8');

/** The code of the README's first TypeScript block. */
function firstTypeScriptBlock(markdown: string): string {
  const match = /```ts\n([\s\S]*?)```/.exec(markdown);
  return match?.[1] ?? '';
}

// The integration example is code that runs (tests/system/test/client-back-off.test.ts runs it
// against the real stack): the README shows that file, not a copy that could drift.
describe("the README's integration example", () => {
  it('is src/examples/api-usage.ts, with the import as an integrator writes it', async () => {
    const example = (await read('src/examples/api-usage.ts'))
      .replace("from '../index.js';", "from '@tap/client';")
      .split('\n')
      .filter((line) => !line.startsWith('//'))
      .join('\n');
    expect(firstTypeScriptBlock(await read('README.md'))).toBe(example);
  });
});
