import { describe, expect, it } from 'vitest';
import {
  allPostsLabel,
  blogPosts,
  categoryCounts,
  filterPosts,
  findPost,
  initialsOf,
  relatedPosts,
} from './posts.ts';
import { postContents } from './post-contents.ts';

describe('blog posts', () => {
  it('has six posts with unique ids, local artwork and every field of the spec', () => {
    expect(blogPosts).toHaveLength(6);
    expect(new Set(blogPosts.map((p) => p.id)).size).toBe(6);
    for (const post of blogPosts) {
      expect(post.imageUrl).toMatch(/^\/images\/blog\/[a-z-]+\.svg$/);
      expect(post.tags.length).toBeGreaterThanOrEqual(2);
      for (const field of ['title', 'excerpt', 'author', 'authorRole', 'authorBio'])
        expect(post[field as keyof typeof post], `${post.id}.${field}`).toBeTruthy();
      expect(postContents[post.id], `${post.id}.content`).toMatch(/<p>/);
    }
    expect(blogPosts.some((p) => p.featured)).toBe(true);
    expect(blogPosts.some((p) => !p.featured)).toBe(true);
  });

  it('counts the categories as the spec gives them, and each count is what the filter shows', () => {
    const counts = categoryCounts(blogPosts);
    expect(counts).toEqual([
      { name: 'All Posts', count: 6 },
      { name: 'Migration Tips', count: 2 },
      { name: 'Platform Comparison', count: 2 },
      { name: 'Industry Trends', count: 1 },
      { name: 'Migration Guide', count: 1 },
      { name: 'SEO', count: 1 },
    ]);
    for (const { name, count } of counts)
      expect(filterPosts(blogPosts, '', name), name).toHaveLength(count);
  });

  it('searches title, excerpt and tags without regard to case, within the chosen category', () => {
    expect(filterPosts(blogPosts, 'SHOPIFY', allPostsLabel).map((p) => p.id)).toEqual([3]);
    // A tag only.
    expect(filterPosts(blogPosts, 'redirects', allPostsLabel).map((p) => p.id)).toEqual([6]);
    expect(filterPosts(blogPosts, 'strategy', allPostsLabel).map((p) => p.id)).toEqual([4, 5]);
    // An excerpt only.
    expect(filterPosts(blogPosts, 'spreadsheets', allPostsLabel)).toEqual([]);
    expect(filterPosts(blogPosts, 'old store keeps', allPostsLabel).map((p) => p.id)).toEqual([2]);
    expect(filterPosts(blogPosts, 'planning', 'Migration Tips').map((p) => p.id)).toEqual([1, 2]);
    expect(filterPosts(blogPosts, 'planning', 'Migration Guide').map((p) => p.id)).toEqual([6]);
    expect(filterPosts(blogPosts, 'shopify', 'SEO')).toEqual([]);
    expect(filterPosts(blogPosts, '   ', 'SEO').map((p) => p.id)).toEqual([6]);
  });

  it('finds a post by its id read as a number', () => {
    expect(findPost(blogPosts, '3')?.id).toBe(3);
    expect(findPost(blogPosts, '03')?.id).toBe(3);
    expect(findPost(blogPosts, '99')).toBeUndefined();
    expect(findPost(blogPosts, 'abc')).toBeUndefined();
    expect(findPost(blogPosts, '')).toBeUndefined();
    expect(findPost(blogPosts, undefined)).toBeUndefined();
  });

  it('relates at most three other posts that share a category or a tag', () => {
    for (const post of blogPosts) {
      const related = relatedPosts(post, blogPosts);
      expect(related.length).toBeLessThanOrEqual(3);
      expect(related.map((p) => p.id)).not.toContain(post.id);
    }
    // Every article leads on to at least one other.
    for (const post of blogPosts)
      expect(relatedPosts(post, blogPosts).length, `post ${post.id}`).toBeGreaterThan(0);
    expect(relatedPosts(blogPosts[5]!, blogPosts).map((p) => p.id)).toEqual([1, 2]);
    // Post 1 shares its category with 2 and the Planning tag with 2 and 6.
    expect(relatedPosts(blogPosts[0]!, blogPosts).map((p) => p.id)).toEqual([2, 6]);
    expect(relatedPosts(blogPosts[0]!, blogPosts, 0)).toEqual([]);
  });

  it('makes author initials from the first two words', () => {
    expect(initialsOf('Migration Engineering')).toBe('ME');
    expect(initialsOf('  customer   success team ')).toBe('CS');
    expect(initialsOf('')).toBe('');
  });
});
