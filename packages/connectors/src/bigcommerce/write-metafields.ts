import { z } from 'zod';
import { errorText } from './client.ts';
import type { MetafieldInput } from './metafields.ts';
import { allPages, parseAnswer, type BcSession } from './session.ts';

/**
 * Writes records' metafields through a batch endpoint (POST .../metafields with resource_id).
 * BigCommerce keeps one metafield per record, namespace and key, so a repeated request cannot
 * double one: an item refused because it is already there counts as written. Answers, per
 * record, the metafields that could not be written and why.
 */
export async function addMetafields(
  session: BcSession,
  path: string,
  entries: { resourceId: number; metafields: MetafieldInput[] }[],
): Promise<Map<number, string[]>> {
  const items = entries.flatMap((e) =>
    e.metafields.map((m) => ({ ...m, resource_id: e.resourceId })),
  );
  const problems = new Map<number, string[]>();
  const slot = (m: { resource_id: number; namespace: string; key: string }) =>
    `${m.resource_id}/${m.namespace}/${m.key}`;
  for (let i = 0; i < items.length; i += 50) {
    const chunk = items.slice(i, i + 50);
    const answer = await session.client.request('POST', path, { idempotent: true, body: chunk });
    const written = new Set<string>();
    if (answer.status === 200 || answer.status === 207 || answer.status === 422) {
      const parsed = parseAnswer(
        z.object({
          data: z
            .array(z.object({ resource_id: z.number(), namespace: z.string(), key: z.string() }))
            .default([]),
        }),
        answer.body ?? {},
        `POST ${path}`,
      );
      for (const m of parsed.data) written.add(slot(m));
    }
    if (chunk.every((m) => written.has(slot(m)))) continue;
    // Refused items may be there already (an earlier attempt got through): look.
    const present = await allPages(
      session.client,
      path,
      { 'namespace:in': [...new Set(chunk.map((m) => m.namespace))] },
      z.object({ resource_id: z.number(), namespace: z.string(), key: z.string() }),
    );
    for (const m of present) written.add(slot(m));
    for (const m of chunk) {
      if (written.has(slot(m))) continue;
      const list = problems.get(m.resource_id) ?? [];
      list.push(
        `the custom field ${m.namespace}/${m.key} was refused: ${errorText(answer.body) || String(answer.status)} (metafields)`,
      );
      problems.set(m.resource_id, list);
    }
  }
  return problems;
}
