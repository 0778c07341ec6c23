import { describe, expect, it } from '@jest/globals';
import { generateFiles, readCheckedIn } from '../scripts/generate.ts';

// The client's types and the reference page come from the routes: a route schema changed without
// `npm run generate -w @tap/client` fails here, not in an integrator's build.
describe('the checked-in document and types', () => {
  it('equal a fresh generation from the gateway routes', async () => {
    const [fresh, checkedIn] = await Promise.all([generateFiles(), readCheckedIn()]);
    expect(checkedIn.document === fresh.document).toBe(true);
    expect(checkedIn.types === fresh.types).toBe(true);
  });
});
