const entities: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  ndash: '–',
  mdash: '—',
  hellip: '…',
};

/** Undoes esc_html(): term names come back as 'Hoodies &amp; Sweatshirts'. */
export function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code.startsWith('#x') || code.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(code.slice(2), 16));
    if (code.startsWith('#')) return String.fromCodePoint(Number(code.slice(1)));
    return entities[code.toLowerCase()] ?? whole;
  });
}

/**
 * A value's slug as WordPress makes one for a term (sanitize_title): accents removed, lower case,
 * spaces and punctuation as hyphens, other letters percent-encoded. Close enough to find which of
 * an attribute's values a default attribute's slug names.
 */
export function termSlug(value: string): string {
  return encodeURIComponent(
    decodeEntities(value)
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .replace(/ß/g, 'ss')
      .toLowerCase()
      .trim()
      .replace(/[\s._]+/g, '-')
      .replace(/[^\p{L}\p{N}-]/gu, '')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, ''),
  ).toLowerCase();
}
