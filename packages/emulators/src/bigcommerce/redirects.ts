import { z } from 'zod';
import type { CatalogContext } from './catalog.ts';
import { BcHttpError } from './http.ts';
import type { BcRedirect, BcState } from './state.ts';

/**
 * Storefront 301 redirects (redirects.v3.yml, /v3/storefront/redirects), kept in
 * specs/bigcommerce.
 *
 * A redirect belongs to a site (`site_id`); the emulated store has one, its default channel's
 * site, which GET /v2/store names as `default_site_id`. A PUT upserts a list: a redirect whose
 * `from_path` and `site_id` are already there is overwritten ("If there's a conflict on the
 * from_path and site_id, the redirect will be overwritten with new data"), any other is created.
 * Its target `to` is a path or URL (`type: url` with `url`) or a record of the store (`product`,
 * `brand`, `category`, `page`, `post` with `entity_id`), which follows the record when its path
 * changes: `include=to_url` answers where it leads now. A GET filters by `site_id`, `id:in`,
 * `id:min`/`id:max` and `keyword`, which "will only search from the beginning of a URL path". A
 * DELETE takes `id:in` (required); ids the store does not have are ignored.
 *
 * The description declares no error answers: the emulator answers invalid input with 422 and
 * the v3 error body, as the other v3 APIs do.
 */

/** The one site of the emulated store, its default channel's (GET /v2/store default_site_id). */
export const defaultSiteId = 1000;

const targetTypes = ['product', 'brand', 'category', 'page', 'post', 'url'] as const;

export const redirectUpsertSchema = z.strictObject({
  from_path: z.string().min(1),
  site_id: z.number().int(),
  to: z
    .strictObject({
      type: z.enum(targetTypes),
      entity_id: z.number().int().optional(),
      url: z.string().max(2048).optional(),
    })
    .optional(),
});
export type RedirectUpsert = z.infer<typeof redirectUpsertSchema>;

/** The path a record of the store has now, or undefined when the store no longer has it. */
function entityPath(
  state: BcState,
  type: BcRedirect['to']['type'],
  id: number,
): string | undefined {
  switch (type) {
    case 'product':
      return state.products.find((p) => p.id === id)?.custom_url.url;
    case 'category':
      return state.categories.find((c) => c.category_id === id)?.url.path;
    case 'brand':
      return state.brands.find((b) => b.id === id)?.custom_url.url;
    case 'page':
      return state.webPages.find((p) => p.id === id)?.url;
    case 'post':
      return state.blogPosts.find((p) => p.id === id)?.url;
    case 'url':
      return undefined;
  }
}

function checkUpsert(state: BcState, input: RedirectUpsert, index: number): BcRedirect['to'] {
  const at = `[${index}]`;
  if (input.site_id !== defaultSiteId)
    throw new BcHttpError(422, 'The site does not exist', {
      [`${at}.site_id`]: `no site with the id ${input.site_id}`,
    });
  if (!input.from_path.startsWith('/'))
    throw new BcHttpError(422, 'Invalid redirect', {
      [`${at}.from_path`]: 'must be a path starting with /',
    });
  const to = input.to ?? { type: 'url' as const, url: '/' };
  if (to.type === 'url') {
    if (!to.url) throw new BcHttpError(422, 'Invalid redirect', { [`${at}.to.url`]: 'required' });
    return { type: 'url', url: to.url };
  }
  if (to.entity_id === undefined)
    throw new BcHttpError(422, 'Invalid redirect', { [`${at}.to.entity_id`]: 'required' });
  if (entityPath(state, to.type, to.entity_id) === undefined)
    throw new BcHttpError(422, 'Invalid redirect', {
      [`${at}.to.entity_id`]: `no ${to.type} with the id ${to.entity_id}`,
    });
  return { type: to.type, entity_id: to.entity_id };
}

/** PUT /storefront/redirects: every entry checked first, then each created or overwritten. */
export function upsertRedirects(state: BcState, inputs: RedirectUpsert[]): BcRedirect[] {
  const targets = inputs.map((input, i) => checkUpsert(state, input, i));
  return inputs.map((input, i) => {
    const to = targets[i]!;
    const current = state.redirects.find(
      (r) => r.site_id === input.site_id && r.from_path === input.from_path,
    );
    if (current) {
      current.to = to;
      return current;
    }
    const redirect: BcRedirect = {
      id: state.nextId('redirect'),
      site_id: input.site_id,
      from_path: input.from_path,
      to,
    };
    state.redirects.push(redirect);
    return redirect;
  });
}

export interface RedirectFilter {
  siteId?: number;
  ids?: number[];
  idMin?: number;
  idMax?: number;
  keyword?: string;
  sort: 'from_path' | 'type' | 'site_id' | 'id';
  direction: 'asc' | 'desc';
}

export function listRedirects(state: BcState, filter: RedirectFilter): BcRedirect[] {
  const keyword = filter.keyword?.toLowerCase();
  const key = (r: BcRedirect): string | number =>
    filter.sort === 'from_path'
      ? r.from_path
      : filter.sort === 'type'
        ? r.to.type
        : filter.sort === 'site_id'
          ? r.site_id
          : r.id;
  const sign = filter.direction === 'desc' ? -1 : 1;
  return state.redirects
    .filter(
      (r) =>
        (filter.siteId === undefined || r.site_id === filter.siteId) &&
        (filter.ids === undefined || filter.ids.includes(r.id)) &&
        (filter.idMin === undefined || r.id >= filter.idMin) &&
        (filter.idMax === undefined || r.id <= filter.idMax) &&
        (keyword === undefined || r.from_path.toLowerCase().startsWith(keyword)),
    )
    .sort((a, b) => {
      const x = key(a);
      const y = key(b);
      return (x < y ? -1 : x > y ? 1 : a.id - b.id) * sign;
    });
}

/** DELETE /storefront/redirects?id:in=: ids the store does not have are ignored. */
export function deleteRedirects(state: BcState, ids: readonly number[]): void {
  const kept = state.redirects.filter((r) => !ids.includes(r.id));
  state.redirects.splice(0, state.redirects.length, ...kept);
}

/** 301RedirectRead; `to_url` (where it leads now, on the storefront) only when asked for. */
export function redirectJson(
  ctx: CatalogContext,
  redirect: BcRedirect,
  withUrl: boolean,
): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: redirect.id,
    site_id: redirect.site_id,
    from_path: redirect.from_path,
    to: { ...redirect.to },
  };
  if (withUrl) {
    const { to } = redirect;
    const path =
      to.type === 'url'
        ? (to.url ?? '/')
        : (entityPath(ctx.state, to.type, to.entity_id ?? 0) ?? '/');
    json.to_url = /^https?:\/\//i.test(path) ? path : new URL(path, ctx.baseUrl()).toString();
  }
  return json;
}
