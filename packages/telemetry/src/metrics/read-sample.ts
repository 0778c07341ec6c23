/**
 * The sum of the samples of `name` in a text exposition whose labels include every pair of
 * `labels` (order does not matter); 0 when there is none. For tests and operator scripts.
 */
export function readSample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const close = line.lastIndexOf('}');
    const labelText = close > 0 ? line.slice(name.length + 1, close) : '';
    const pairs = labelText === '' ? [] : labelText.split(/,(?=[a-zA-Z_]+=")/);
    if (!wanted.every((pair) => pairs.includes(pair))) continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}
