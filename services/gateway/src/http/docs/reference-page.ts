/** `&`, `<`, `>` and `"` escaped: the values below are ours, but an attribute is no place to trust. */
const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The reference page: the renderer's stylesheet and scripts from `assetsUrl` (our origin), the
 * document from `specUrl`. No inline script or style, so the CSP needs no hash or nonce.
 */
export function referencePage(options: { readonly assetsUrl: string; readonly specUrl: string }): string {
  const assets = escapeHtml(options.assetsUrl);
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>API reference · Tenant access platform</title>
    <link rel="stylesheet" href="${assets}/swagger-ui.css">
    <link rel="stylesheet" href="${assets}/page.css">
    <link rel="icon" type="image/png" href="${assets}/favicon-32x32.png">
  </head>
  <body>
    <main id="reference" data-spec-url="${escapeHtml(options.specUrl)}"></main>
    <script src="${assets}/swagger-ui-bundle.js"></script>
    <script src="${assets}/start.js"></script>
  </body>
</html>
`;
}
