import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** One file the reference page loads, held in memory. */
export interface ReferenceAsset {
  readonly contentType: string;
  readonly body: Buffer;
}

/** The renderer's files we serve (swagger-ui-dist), and nothing else from its folder. */
const RENDERER_FILES = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
} as const;

/**
 * Starts the renderer on the page's `#reference` element with the document at its `data-spec-url`.
 * A file of its own, not an inline script: the page's CSP allows scripts from our origin only.
 * `validatorUrl: null` keeps the page from calling validator.swagger.io.
 */
const START_SCRIPT = `'use strict';
window.addEventListener('load', function () {
  var root = document.getElementById('reference');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-spec-url'),
    domNode: root,
    deepLinking: true,
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
    displayOperationId: true,
    persistAuthorization: false,
    tryItOutEnabled: false
  });
});
`;

const PAGE_CSS = `html { box-sizing: border-box; overflow-y: scroll; }
*, *::before, *::after { box-sizing: inherit; }
body { margin: 0; background: #fafafa; }
`;

let loaded: Promise<ReadonlyMap<string, ReferenceAsset>> | undefined;

/** Every asset by file name, read once per process from the installed swagger-ui-dist. */
export function referenceAssets(): Promise<ReadonlyMap<string, ReferenceAsset>> {
  loaded ??= (async () => {
    const folder = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    const assets = new Map<string, ReferenceAsset>();
    for (const [name, contentType] of Object.entries(RENDERER_FILES)) {
      assets.set(name, { contentType, body: await readFile(join(folder, name)) });
    }
    assets.set('start.js', {
      contentType: 'text/javascript; charset=utf-8',
      body: Buffer.from(START_SCRIPT),
    });
    assets.set('page.css', { contentType: 'text/css; charset=utf-8', body: Buffer.from(PAGE_CSS) });
    return assets;
  })();
  return loaded;
}
