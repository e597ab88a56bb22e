import type { SampleStore } from '../framework/sample-store.ts';
import type { WooStore } from './shop.ts';
import type { WpPost, WpUser } from './wp-content.ts';

/**
 * The sample store's web pages and blog posts as WordPress keeps them: pages in their tree with
 * their menu order, posts with categories and tags by name (made as needed), featured images in
 * the media library with their alt text, authors as WordPress users by display name. A draft
 * keeps its creation date as its date, as WordPress does.
 */
export function seedContent(store: WooStore, sample: SampleStore): void {
  const wp = store.wp;
  const authors = new Map<string, WpUser>();
  const author = (name: string): number => {
    if (!name) return wp.admin.id;
    let user = authors.get(name);
    if (!user) {
      user = wp.addUser(name.toLowerCase().replace(/[^a-z0-9]+/g, '.'), name);
      authors.set(name, user);
    }
    return user.id;
  };
  const image = (path: string | null, alt: string, created: string) =>
    path ? store.addAttachment(path, alt, Date.parse(created)).id : 0;
  const date = (iso: string) => new Date(iso).toISOString().slice(0, 19);
  const common = (c: SampleStore['pages'][number] | SampleStore['posts'][number]) => ({
    title: c.title,
    slug: c.slug,
    content: c.body,
    excerpt: c.excerpt,
    status: c.status === 'published' ? ('publish' as const) : ('draft' as const),
    date: date(c.publishedAt ?? c.createdAt),
    modified: date(c.updatedAt),
    author: author(c.authorName),
    featuredMedia: image(c.imagePath, c.imageAlt, c.createdAt),
    template: '',
    password: '',
    sticky: false,
    format: 'standard',
  });

  const pageIds = new Map<string, number>();
  for (const p of sample.pages) {
    const page: WpPost = {
      ...common(p),
      id: store.postId(),
      type: 'page',
      parent: p.parentKey ? (pageIds.get(p.parentKey) ?? 0) : 0,
      menuOrder: p.position,
      commentStatus: 'closed',
      pingStatus: 'closed',
      categories: [],
      tags: [],
    };
    wp.posts.set(page.id, page);
    pageIds.set(p.key, page.id);
  }
  for (const p of sample.posts) {
    const categories = p.categories.map(
      (name) => (wp.termByName('category', name) ?? wp.insertTerm('category', { name })).id,
    );
    const tags = p.tags.map(
      (name) => (wp.termByName('post_tag', name) ?? wp.insertTerm('post_tag', { name })).id,
    );
    const post: WpPost = {
      ...common(p),
      id: store.postId(),
      type: 'post',
      parent: 0,
      menuOrder: 0,
      commentStatus: 'open',
      pingStatus: 'open',
      categories: categories.length ? categories : [wp.defaultCategoryId],
      tags,
    };
    wp.posts.set(post.id, post);
  }
}
