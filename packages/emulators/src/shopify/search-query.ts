/**
 * Shopify's search syntax for the `query` argument (shopify.dev/docs/api/usage/search-syntax):
 * terms joined by whitespace (AND), `OR`, `AND`, `NOT` or a leading `-`, parentheses,
 * `field:value`, comparators `field:>v`, `:>=`, `:<`, `:<=`, quoted values and a trailing `*` for
 * prefix matches. Free text (no field) matches the resource's default text fields.
 */

export type Comparator = '=' | '>' | '>=' | '<' | '<=';

export type SearchNode =
  | { kind: 'term'; field: string | null; comparator: Comparator; value: string; prefix: boolean }
  | { kind: 'and' | 'or'; children: SearchNode[] }
  | { kind: 'not'; child: SearchNode }
  | { kind: 'all' };

type Token =
  | { kind: 'open' | 'close' | 'or' | 'and' | 'not' }
  | { kind: 'word'; text: string; negated: boolean };

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const ch = query[i] ?? '';
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '(' || ch === ')') {
      tokens.push({ kind: ch === '(' ? 'open' : 'close' });
      i++;
      continue;
    }
    let negated = false;
    if (ch === '-' && i + 1 < query.length && !/\s/.test(query[i + 1] ?? '')) {
      negated = true;
      i++;
    }
    let text = '';
    while (i < query.length) {
      const c = query[i] ?? '';
      if (/\s/.test(c) || c === '(' || c === ')') break;
      if (c === '"' || c === "'") {
        i++;
        while (i < query.length && query[i] !== c) {
          if (query[i] === '\\' && i + 1 < query.length) i++;
          text += query[i];
          i++;
        }
        i++;
        continue;
      }
      if (c === '\\' && i + 1 < query.length) {
        text += query[i + 1];
        i += 2;
        continue;
      }
      text += c;
      i++;
    }
    if (!negated && (text === 'OR' || text === 'AND' || text === 'NOT'))
      tokens.push({ kind: text.toLowerCase() as 'or' | 'and' | 'not' });
    else tokens.push({ kind: 'word', text, negated });
  }
  return tokens;
}

function term(text: string): SearchNode {
  const colon = text.indexOf(':');
  let field: string | null = null;
  let rest = text;
  if (colon > 0) {
    field = text.slice(0, colon).toLowerCase();
    rest = text.slice(colon + 1);
  }
  let comparator: Comparator = '=';
  for (const op of ['>=', '<=', '>', '<'] as const) {
    if (field !== null && rest.startsWith(op)) {
      comparator = op;
      rest = rest.slice(op.length);
      break;
    }
  }
  const prefix = rest.endsWith('*');
  return { kind: 'term', field, comparator, value: prefix ? rest.slice(0, -1) : rest, prefix };
}

export function parseSearchQuery(query: string | null | undefined): SearchNode {
  const tokens = tokenize(query ?? '');
  let position = 0;

  const parseOr = (): SearchNode => {
    const children = [parseAnd()];
    while (tokens[position]?.kind === 'or') {
      position++;
      children.push(parseAnd());
    }
    return children.length === 1 ? (children[0] as SearchNode) : { kind: 'or', children };
  };
  const parseAnd = (): SearchNode => {
    const children: SearchNode[] = [];
    for (;;) {
      const token = tokens[position];
      if (!token || token.kind === 'close' || token.kind === 'or') break;
      if (token.kind === 'and') {
        position++;
        continue;
      }
      children.push(parseUnary());
    }
    if (children.length === 0) return { kind: 'all' };
    return children.length === 1 ? (children[0] as SearchNode) : { kind: 'and', children };
  };
  const parseUnary = (): SearchNode => {
    const token = tokens[position++];
    if (!token) return { kind: 'all' };
    if (token.kind === 'not') return { kind: 'not', child: parseUnary() };
    if (token.kind === 'open') {
      const inner = parseOr();
      if (tokens[position]?.kind === 'close') position++;
      return inner;
    }
    if (token.kind === 'word') {
      const node = term(token.text);
      return token.negated ? { kind: 'not', child: node } : node;
    }
    return { kind: 'all' };
  };
  return parseOr();
}

/**
 * How a resource answers one field: text values (matched case-insensitively, exact or prefix),
 * numbers or dates (compared). Unknown fields are ignored as Shopify ignores them.
 */
export type FieldValues = (field: string) => (string | number | null)[] | undefined;

function compare(
  actual: string | number,
  comparator: Comparator,
  expected: string,
  prefix: boolean,
): boolean {
  if (comparator === '=') {
    const a = String(actual).toLowerCase();
    const e = expected.toLowerCase();
    return prefix ? a.startsWith(e) : a === e;
  }
  let left: number;
  let right: number;
  if (typeof actual === 'number') {
    left = actual;
    right = Number(expected);
  } else {
    left = Date.parse(actual);
    right = expected === 'now' ? Date.now() : Date.parse(expected);
  }
  if (Number.isNaN(left) || Number.isNaN(right)) return false;
  switch (comparator) {
    case '>':
      return left > right;
    case '>=':
      return left >= right;
    case '<':
      return left < right;
    default:
      return left <= right;
  }
}

export function matchesSearch(node: SearchNode, values: FieldValues, freeText: string[]): boolean {
  switch (node.kind) {
    case 'all':
      return true;
    case 'and':
      return node.children.every((c) => matchesSearch(c, values, freeText));
    case 'or':
      return node.children.some((c) => matchesSearch(c, values, freeText));
    case 'not':
      return !matchesSearch(node.child, values, freeText);
    case 'term': {
      if (node.field === null) {
        const needle = node.value.toLowerCase();
        return freeText.some((t) => t.toLowerCase().includes(needle));
      }
      const found = values(node.field);
      if (found === undefined) return true;
      if (node.value === '*') return found.some((v) => v !== null && v !== '');
      return found.some((v) => v !== null && compare(v, node.comparator, node.value, node.prefix));
    }
  }
}
