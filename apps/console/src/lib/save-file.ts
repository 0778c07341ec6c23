/** How long the object URL of a saved file lives: the browser has started the download by then. */
const RELEASE_AFTER_MS = 60_000;

/**
 * Hands `blob` to the browser as a download named `name`. A link to the route itself would
 * download a 401 page once the 15-minute session cookie expired; fetching through the seam first
 * refreshes the session and shows a refusal in words.
 */
export function saveFile(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), RELEASE_AFTER_MS);
}
