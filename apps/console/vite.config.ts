import { defineConfig } from 'vite';

/**
 * The console is served by the gateway under /console/ (same origin as the API, so the session
 * cookies, CSRF and Origin rules hold). JSX comes from tsconfig (`jsxImportSource: preact`).
 * No inline script or style is emitted: the gateway's CSP allows 'self' only.
 */
export default defineConfig({
  base: '/console/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Module preload is native in every browser we support; the polyfill would be inline-free
    // anyway, but leaving it out keeps the bundle to our own code.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
