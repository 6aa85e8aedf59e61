/**
 * Accept-Language (RFC 9110 §12.5.4): the first of `supported` the header accepts, by q-value and then
 * position, matching a tag's primary subtag (`ja-JP` counts as `ja`); undefined when none. Bounded: the
 * first 1,000 characters and 20 ranges; only BCP 47-shaped tags with q > 0 count.
 */
export function acceptedLanguage<T extends string>(header: string | undefined, supported: readonly T[]): T | undefined {
  if (!header) return undefined;
  const ranges = header
    .slice(0, 1000)
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((range) => range.weight > 0 && /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(range.tag))
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const range of ranges) {
    const base = range.tag.split('-')[0]!.toLowerCase();
    const match = supported.find((language) => language === base);
    if (match) return match;
  }
  return undefined;
}
