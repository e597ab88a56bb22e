import { z } from 'zod';
import type { Redirect, RedirectOutcome } from '../kit/contract.ts';
import { ConnectorError, isTransient } from '../kit/errors.ts';
import { redirectPath } from './from-canonical.ts';
import type { Operation, ShopifyGraphqlClient } from './graphql-client.ts';

/**
 * The shop's URL redirects (Online Store > Navigation > URL redirects), which the storefront
 * serves as 301s. Existing ones are found by path (`urlRedirects(query: "path:…")`, several paths
 * as aliases of one query), the missing ones created with `urlRedirectCreate`, several as aliases
 * of one request. A path is one redirect at Shopify (paths are unique, compared without case), so
 * a path already sent elsewhere is the owner's and stays as it is. All of it needs the
 * write_online_store_navigation access scope.
 */

type UserErrors = { field: string[] | null; message: string; code?: string | null }[];
type Found = { id: string; path: string; target: string };

/** Paths looked up, or redirects created, per request. */
export const REDIRECTS_PER_REQUEST = 25;
/** Redirects asked for per path looked up (the path itself and a few others its search matches). */
const MATCHES_PER_PATH = 5;

const userErrorSchema = z.object({
  field: z.array(z.string()).nullable(),
  message: z.string(),
  code: z.string().nullable().optional(),
});
const redirectSchema = z.object({ id: z.string(), path: z.string(), target: z.string() });

/** A search value in single quotes, as Shopify's search syntax takes one with spaces or colons. */
const quote = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** How Shopify tells paths apart: without regard to case. */
const pathKey = (path: string) => path.toLowerCase();

function lookupOperation(count: number): Operation<Record<string, { nodes: Found[] }>> {
  const vars = Array.from({ length: count }, (_, i) => `$q${i}: String!`).join(', ');
  const fields = Array.from(
    { length: count },
    (_, i) =>
      `r${i}: urlRedirects(first: ${MATCHES_PER_PATH}, query: $q${i}) { nodes { id path target } }`,
  ).join('\n');
  return {
    name: 'RedirectsByPath',
    document: `query RedirectsByPath(${vars}) {\n${fields}\n}`,
    cost: () => count * (2 + MATCHES_PER_PATH),
    data: z.record(z.string(), z.object({ nodes: z.array(redirectSchema) })),
  };
}

type CreatePayload = { urlRedirect: Found | null; userErrors: UserErrors } | null;

function createOperation(count: number): Operation<Record<string, CreatePayload>> {
  const vars = Array.from({ length: count }, (_, i) => `$r${i}: UrlRedirectInput!`).join(', ');
  const fields = Array.from(
    { length: count },
    (_, i) =>
      `c${i}: urlRedirectCreate(urlRedirect: $r${i}) { urlRedirect { id path target } userErrors { field message code } }`,
  ).join('\n');
  return {
    name: 'RedirectsCreate',
    document: `mutation RedirectsCreate(${vars}) {\n${fields}\n}`,
    cost: () => 10 * count,
    data: z.record(
      z.string(),
      z
        .object({ urlRedirect: redirectSchema.nullable(), userErrors: z.array(userErrorSchema) })
        .nullable(),
    ),
  };
}

const messages = (errors: UserErrors) =>
  errors
    .map((e) => (e.field?.length ? `${e.field.join('.')}: ${e.message}` : e.message))
    .join('; ');

const chunks = <T>(list: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += REDIRECTS_PER_REQUEST)
    out.push(list.slice(i, i + REDIRECTS_PER_REQUEST));
  return out;
};

const NO_SCOPE =
  'The app lacks the write_online_store_navigation access scope, which Shopify needs for URL redirects: grant it to the app (and have the shop approve the update), or add the redirect under Online Store > Navigation > URL redirects.';

export class ShopifyRedirects {
  readonly #client: ShopifyGraphqlClient;

  constructor(client: ShopifyGraphqlClient) {
    this.#client = client;
  }

  /** The shop's redirect of each path, if it has one (by path key). */
  async #lookup(paths: readonly string[]): Promise<Map<string, Found>> {
    const found = new Map<string, Found>();
    for (const chunk of chunks(paths)) {
      const variables = Object.fromEntries(chunk.map((p, i) => [`q${i}`, `path:${quote(p)}`]));
      const answer = await this.#client.request(lookupOperation(chunk.length), variables);
      chunk.forEach((path, i) => {
        // The search may match more than the path itself: only the exact path counts.
        const exact = answer[`r${i}`]?.nodes.find((n) => pathKey(n.path) === pathKey(path));
        if (exact) found.set(pathKey(path), exact);
      });
    }
    return found;
  }

  async write(redirects: readonly Redirect[]): Promise<RedirectOutcome[]> {
    try {
      return await this.#write(redirects);
    } catch (error) {
      if (error instanceof ConnectorError && error.code === 'missing_scope')
        return redirects.map((r) => ({ from: r.from, outcome: 'failed', reason: NO_SCOPE }));
      throw error;
    }
  }

  async #write(redirects: readonly Redirect[]): Promise<RedirectOutcome[]> {
    const outcomes = new Map<number, RedirectOutcome>();
    const wanted: { index: number; path: string; target: string }[] = [];
    redirects.forEach((r, index) => {
      const path = redirectPath(r.from);
      const target = r.to.trim();
      if (!path || !path.startsWith('/'))
        outcomes.set(index, {
          from: r.from,
          outcome: 'failed',
          reason: `The old path '${r.from}' is not a path of the store, which is all Shopify redirects from.`,
        });
      else if (!target)
        outcomes.set(index, {
          from: r.from,
          outcome: 'failed',
          reason: 'The redirect has no target.',
        });
      else if (path === target)
        outcomes.set(index, {
          from: r.from,
          outcome: 'failed',
          reason: `The old path is the new one (${path}): nothing to redirect.`,
        });
      else wanted.push({ index, path, target });
    });
    const known = await this.#lookup([...new Set(wanted.map((w) => w.path))]);
    // Each path missing at the shop is created once, for its first redirect.
    const creating = new Map<string, (typeof wanted)[number]>();
    for (const w of wanted)
      if (!known.has(pathKey(w.path)) && !creating.has(pathKey(w.path)))
        creating.set(pathKey(w.path), w);
    const created = new Set<number>();
    for (const chunk of chunks([...creating.values()])) {
      const variables = Object.fromEntries(
        chunk.map((w, i) => [`r${i}`, { path: w.path, target: w.target }]),
      );
      let answer: Record<string, CreatePayload>;
      try {
        answer = await this.#client.request(createOperation(chunk.length), variables, {
          idempotent: false,
        });
      } catch (error) {
        if (!isTransient(error)) throw error;
        // The answer was lost: what the shop has now of those paths (unseen before) came from it.
        const landed = await this.#lookup(chunk.map((w) => w.path));
        for (const w of chunk) {
          const redirect = landed.get(pathKey(w.path));
          if (redirect) {
            known.set(pathKey(w.path), redirect);
            if (redirect.target === w.target) created.add(w.index);
          } else
            outcomes.set(w.index, {
              from: redirects[w.index]!.from,
              outcome: 'failed',
              reason: `Shopify did not answer the redirect's creation (${error instanceof Error ? error.message : String(error)}); the next run tries again.`,
            });
        }
        continue;
      }
      const taken: (typeof wanted)[number][] = [];
      chunk.forEach((w, i) => {
        const payload = answer[`c${i}`];
        if (payload?.urlRedirect) {
          known.set(pathKey(w.path), payload.urlRedirect);
          created.add(w.index);
          return;
        }
        const errors = payload?.userErrors ?? [];
        if (errors.some((e) => /taken/i.test(e.message))) taken.push(w);
        else
          outcomes.set(w.index, {
            from: redirects[w.index]!.from,
            outcome: 'failed',
            reason: `Shopify refused the redirect from ${w.path} to ${w.target}: ${messages(errors) || 'no reason given'}.`,
          });
      });
      // Made meanwhile by someone else: compared below like the ones found at first.
      if (taken.length)
        for (const [key, r] of await this.#lookup(taken.map((w) => w.path))) known.set(key, r);
    }
    for (const w of wanted) {
      if (outcomes.has(w.index)) continue;
      const from = redirects[w.index]!.from;
      const redirect = known.get(pathKey(w.path));
      if (!redirect) {
        outcomes.set(w.index, {
          from,
          outcome: 'failed',
          reason: `Shopify did not keep the redirect from ${w.path}.`,
        });
        continue;
      }
      if (created.has(w.index))
        outcomes.set(w.index, { from, outcome: 'created', destinationId: redirect.id });
      else if (redirect.target === w.target)
        outcomes.set(w.index, { from, outcome: 'existing', destinationId: redirect.id });
      else
        outcomes.set(w.index, {
          from,
          outcome: 'failed',
          reason: `The store already redirects ${redirect.path} to ${redirect.target}; that redirect was left as it is (Shopify keeps one redirect per path).`,
        });
    }
    return redirects.map(
      (r, i) => outcomes.get(i) ?? { from: r.from, outcome: 'failed', reason: 'Not written.' },
    );
  }
}
