import { z } from 'zod';
import type { Page, Post } from '@replatform/canonical/content';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { createOnce, errorText, type BcAnswer } from './client.ts';
import { holdsPage, holdsPost, pageToBc, postToBc, type PostBody } from './map-content.ts';
import { allWebPages } from './native.ts';
import { blogPostSchema, webPageSchema, type BcBlogPost, type BcWebPage } from './payloads.ts';
import { parseAnswer, type BcSession } from './session.ts';
import { linked, skipped } from './write-catalog.ts';

/**
 * Web pages go one per POST /v3/content/pages (pages.v3.yml createPages), blog posts one per
 * POST /v2/blog/posts (store_content.v2.yml createBlogPosts). Neither has custom fields in these
 * APIs, so no marker can be left on them: a re-run finds its pages and posts through the id map,
 * and otherwise by their storefront path, which is unique in a store:
 *
 * - a record the id map knows is compared with its copy: left alone when the copy holds what
 *   would be written (skipped), written again otherwise (updated); a copy deleted at the
 *   destination since is written anew;
 * - a page or post at the same path that the id map does not know is the merchant's: it is
 *   linked and skipped, never changed;
 * - a create whose answer was lost is looked for by its path before it is sent again, and found
 *   it is the one just created.
 *
 * A page's parent is its parent's copy (the engine writes one level of the tree per call); a
 * page whose parent was not written goes to the top level, named in its report row. A page or
 * post BigCommerce refuses fails with its reason, the others going on.
 */

const linkedPage =
  'a page with this storefront path already existed at the destination; linked to it, not changed';
const linkedPost =
  'a blog post with this storefront path already existed at the destination; linked to it, not changed';

const failed = (sourceId: string, reason: string, warnings: string[] = []): WriteOutcome => ({
  sourceId,
  outcome: 'failed',
  reason,
  ...(warnings.length ? { warnings } : {}),
});

const withWarnings = (outcome: WriteOutcome, warnings: string[]): WriteOutcome =>
  warnings.length ? { ...outcome, warnings: [...(outcome.warnings ?? []), ...warnings] } : outcome;

const pathKey = (path: string | undefined | null) => (path ?? '').trim().toLowerCase();

const refusal = (what: string, answer: BcAnswer) =>
  `BigCommerce refused the ${what} (${answer.status}): ${errorText(answer.body) || `status ${answer.status}`}`;

function unexpected(what: string, answer: BcAnswer): ConnectorError {
  return new ConnectorError(
    'system',
    'unexpected_answer',
    `${what} answered ${answer.status}: ${errorText(answer.body)}`,
    { status: answer.status },
  );
}

// ------------------------------------------------------------------ pages

const pageAnswer = z.object({ data: webPageSchema });

async function pagesOfStore(session: BcSession): Promise<BcWebPage[]> {
  return (await allWebPages(session)).flatMap((raw) => {
    const parsed = webPageSchema.safeParse(raw);
    return parsed.success ? [parsed.data] : [];
  });
}

export async function writePages(
  session: BcSession,
  records: Page[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const { client } = session;
  const pages = await pagesOfStore(session);
  const byId = new Map(pages.map((p) => [p.id, p]));
  const byPath = (path: string | undefined) =>
    path ? pages.find((p) => pathKey(p.url) === pathKey(path)) : undefined;
  // Source id -> destination id of the pages this call wrote or linked.
  const written = new Map<string, string>();
  const remember = (page: BcWebPage) => {
    const at = pages.findIndex((p) => p.id === page.id);
    if (at >= 0) pages[at] = page;
    else pages.push(page);
    byId.set(page.id, page);
  };

  const writeOne = async (page: Page): Promise<WriteOutcome> => {
    const warnings: string[] = [];
    let parent = 0;
    if (page.parentId !== null) {
      const mapped = idMap.get('pages', page.parentId) ?? written.get(page.parentId);
      if (mapped !== undefined && byId.has(Number(mapped))) parent = Number(mapped);
      else
        warnings.push(
          `its parent page (${page.parentId}) is not at the destination; written at the top level (parentId)`,
        );
    }
    const write = pageToBc(page, parent);
    if (!write.ok) return failed(page.id, write.reason);
    // keepSlugs false: BigCommerce makes the page's path from its name.
    if (!session.choices.keepSlugs) delete write.body.url;
    warnings.push(...write.warnings);
    const body = write.body;

    const mapped = idMap.get('pages', page.id);
    const current = mapped === undefined ? undefined : byId.get(Number(mapped));
    if (current) {
      if (holdsPage(current, body))
        return withWarnings(skipped(page.id, current.id, 'unchanged'), warnings);
      const answer = await client.request('PUT', `/v3/content/pages/${current.id}`, {
        body,
        idempotent: true,
      });
      if (answer.status !== 200) return failed(page.id, refusal('page', answer), warnings);
      remember(parseAnswer(pageAnswer, answer.body, 'PUT /v3/content/pages/{pageId}').data);
      return withWarnings(
        { sourceId: page.id, outcome: 'updated', destinationId: String(current.id) },
        warnings,
      );
    }

    const same = byPath(body.url);
    if (same) return linked(page.id, same.id, linkedPage);
    const sameName = pages.find((p) => p.name.trim().toLowerCase() === body.name.toLowerCase());
    if (sameName)
      return failed(
        page.id,
        `the destination already has a page named '${sameName.name}' (page ${sameName.id}, at ${sameName.url || 'no path'}), and BigCommerce page names are unique`,
        warnings,
      );

    const sent = await createOnce<{ answer?: BcAnswer; found?: BcWebPage }>(
      client,
      async () => ({ answer: await client.request('POST', '/v3/content/pages', { body }) }),
      async () => {
        // The create may have gone through before its answer was lost: the path is ours then.
        const found = (await pagesOfStore(session)).find(
          (p) =>
            (body.url ? pathKey(p.url) === pathKey(body.url) : true) &&
            p.name.trim().toLowerCase() === body.name.toLowerCase(),
        );
        return found ? { found } : undefined;
      },
    );
    let created = sent.found;
    if (!created && sent.answer) {
      if (sent.answer.status !== 201 && sent.answer.status !== 200)
        return failed(page.id, refusal('page', sent.answer), warnings);
      created = parseAnswer(pageAnswer, sent.answer.body, 'POST /v3/content/pages').data;
    }
    if (!created) return failed(page.id, 'BigCommerce did not confirm the page', warnings);
    remember(created);
    return withWarnings(
      { sourceId: page.id, outcome: 'created', destinationId: String(created.id) },
      warnings,
    );
  };

  // One at a time, parents before their children when both are in the batch (the engine gives
  // one level of the tree per call; other callers may give a whole tree): page names and paths are
  // unique, and a later page of the batch may clash with an earlier one.
  const outcomes = new Map<string, WriteOutcome>();
  for (const record of parentsFirst(records)) {
    const outcome = await writeOne(record);
    outcomes.set(record.id, outcome);
    if (outcome.destinationId !== undefined) written.set(record.id, outcome.destinationId);
  }
  return records.map((r) => outcomes.get(r.id) ?? failed(r.id, 'not written'));
}

/** The pages in an order that puts every parent of the batch before its children. */
function parentsFirst(records: Page[]): Page[] {
  const ids = new Set(records.map((r) => r.id));
  const done = new Set<string>();
  const out: Page[] = [];
  let rest = records;
  while (rest.length) {
    const ready = rest.filter(
      (r) => r.parentId === null || !ids.has(r.parentId) || done.has(r.parentId),
    );
    // A loop of parents in the batch: the rest as given.
    const next = ready.length ? ready : rest;
    for (const r of next) {
      out.push(r);
      done.add(r.id);
    }
    rest = rest.filter((r) => !done.has(r.id));
  }
  return out;
}

// ------------------------------------------------------------------ posts

async function postById(session: BcSession, id: number): Promise<BcBlogPost | undefined> {
  const answer = await session.client.request('GET', `/v2/blog/posts/${id}`);
  if (answer.status === 404) return undefined;
  if (answer.status !== 200) throw unexpected(`Reading blog post ${id}`, answer);
  return parseAnswer(blogPostSchema, answer.body, 'GET /v2/blog/posts/{id}');
}

async function postByPath(session: BcSession, url: string): Promise<BcBlogPost | undefined> {
  const answer = await session.client.ok('GET', '/v2/blog/posts', { query: { url } });
  if (answer.body === undefined) return undefined;
  const list = parseAnswer(z.array(blogPostSchema), answer.body, 'GET /v2/blog/posts');
  return list.find((p) => pathKey(p.url) === pathKey(url));
}

export async function writePosts(
  session: BcSession,
  records: Post[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const { client } = session;

  const send = (method: 'POST' | 'PUT', path: string, body: PostBody) =>
    client.request(method, path, { body, idempotent: method === 'PUT' });

  const writeOne = async (post: Post): Promise<WriteOutcome> => {
    const write = postToBc(post);
    if (!write.ok) return failed(post.id, write.reason);
    // keepSlugs false: BigCommerce makes the post's path from its title.
    if (!session.choices.keepSlugs) delete write.body.url;
    const { body, warnings } = write;

    const mapped = idMap.get('posts', post.id);
    const current = mapped === undefined ? undefined : await postById(session, Number(mapped));
    if (current) {
      if (holdsPost(current, body))
        return withWarnings(skipped(post.id, current.id, 'unchanged'), warnings);
      const answer = await send('PUT', `/v2/blog/posts/${current.id}`, body);
      if (answer.status !== 200) return failed(post.id, refusal('blog post', answer), warnings);
      return withWarnings(
        { sourceId: post.id, outcome: 'updated', destinationId: String(current.id) },
        warnings,
      );
    }

    if (body.url) {
      const same = await postByPath(session, body.url);
      if (same) return linked(post.id, same.id, linkedPost);
    }

    const sent = await createOnce<{ answer?: BcAnswer; found?: number }>(
      client,
      async () => ({ answer: await send('POST', '/v2/blog/posts', body) }),
      async () => {
        if (!body.url) return undefined;
        const found = await postByPath(session, body.url);
        return found ? { found: found.id } : undefined;
      },
    );
    let created = sent.found;
    if (created === undefined && sent.answer) {
      if (sent.answer.status === 409 && body.url) {
        // Made meanwhile by someone else at this path: the merchant's, as above.
        const same = await postByPath(session, body.url);
        if (same) return linked(post.id, same.id, linkedPost);
      }
      if (sent.answer.status !== 200 && sent.answer.status !== 201)
        return failed(post.id, refusal('blog post', sent.answer), warnings);
      created = parseAnswer(blogPostSchema, sent.answer.body, 'POST /v2/blog/posts').id;
    }
    if (created === undefined)
      return failed(post.id, 'BigCommerce did not confirm the blog post', warnings);
    return withWarnings(
      { sourceId: post.id, outcome: 'created', destinationId: String(created) },
      warnings,
    );
  };

  const outcomes: WriteOutcome[] = [];
  for (const record of records) outcomes.push(await writeOne(record));
  return outcomes;
}
