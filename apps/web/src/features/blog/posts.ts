/** The blog's articles, built into the page (spec.md section 3, Blog post). */

export const blogCategories = [
  'Migration Tips',
  'Platform Comparison',
  'Industry Trends',
  'Migration Guide',
  'SEO',
] as const;
export type BlogCategory = (typeof blogCategories)[number];

export interface BlogPost {
  id: number;
  title: string;
  excerpt: string;
  author: string;
  authorRole: string;
  authorBio: string;
  date: string;
  readTime: string;
  views: string;
  comments: number;
  category: BlogCategory;
  /**
   * Further categories the article is filed under: the SEO guide is also the blog's migration
   * guide, which is how six articles fill the five categories' counts.
   */
  alsoIn?: BlogCategory[];
  featured: boolean;
  tags: string[];
  imageUrl: string;
  imageAlt: string;
}

const engineering = {
  author: 'Migration Engineering',
  authorRole: 'The team behind the migration engine',
  authorBio:
    'We build and run the engine that reads, transforms and writes your catalogue, customers and orders, and we answer the hard questions our support team passes on.',
};
const success = {
  author: 'Customer Success',
  authorRole: 'Store migration specialists',
  authorBio:
    'We help store owners plan their move, from the first test run to the day the new store takes its first order.',
};
const research = {
  author: 'Platform Research',
  authorRole: 'Connectors and platform APIs',
  authorBio:
    'We keep our Magento 2, Shopify, WooCommerce and BigCommerce connectors in step with each platform’s API, and write down what each one can and cannot hold.',
};

export const blogPosts: BlogPost[] = [
  {
    id: 1,
    title: 'Seven checks before you migrate your store',
    excerpt:
      'A short list that saves long evenings: what to tidy, count and decide before the first record moves.',
    ...success,
    date: 'February 3, 2025',
    readTime: '6 min read',
    views: '3.2K',
    comments: 14,
    category: 'Migration Tips',
    featured: true,
    tags: ['Planning', 'Checklist', 'Data Quality'],
    imageUrl: '/images/blog/checklist.svg',
    imageAlt: 'A checklist with seven ticked boxes beside a store front',
  },
  {
    id: 2,
    title: 'Cut-over day without downtime',
    excerpt:
      'How to switch platforms while the old store keeps taking orders, and what to do in the hour after.',
    ...engineering,
    date: 'January 20, 2025',
    readTime: '5 min read',
    views: '2.1K',
    comments: 9,
    category: 'Migration Tips',
    featured: false,
    tags: ['Cut-over', 'Zero Downtime', 'Planning'],
    imageUrl: '/images/blog/cutover.svg',
    imageAlt: 'Two storefronts joined by an arrow, with a clock between them',
  },
  {
    id: 3,
    title: 'Magento 2 or Shopify: what changes for your catalogue',
    excerpt:
      'Configurable products, category trees and customer accounts look different on Shopify. Here is how each one lands.',
    ...research,
    date: 'January 8, 2025',
    readTime: '8 min read',
    views: '4.8K',
    comments: 21,
    category: 'Platform Comparison',
    featured: true,
    tags: ['Magento', 'Shopify', 'Catalogue'],
    imageUrl: '/images/blog/magento-shopify.svg',
    imageAlt: 'An orange Magento cube and a green Shopify bag side by side',
  },
  {
    id: 4,
    title: 'WooCommerce or BigCommerce: choosing where to go next',
    excerpt:
      'Self-hosted freedom or a hosted platform that runs itself? A practical comparison for growing stores.',
    ...research,
    date: 'December 12, 2024',
    readTime: '7 min read',
    views: '1.9K',
    comments: 6,
    category: 'Platform Comparison',
    featured: false,
    tags: ['WooCommerce', 'BigCommerce', 'Hosting', 'Strategy'],
    imageUrl: '/images/blog/woo-bigcommerce.svg',
    imageAlt: 'A purple WooCommerce speech bubble facing a dark BigCommerce tile',
  },
  {
    id: 5,
    title: 'Why stores are replatforming now',
    excerpt:
      'Ageing platforms, rising hosting costs and new ways of selling are pushing merchants to move. What that means for you.',
    ...success,
    date: 'November 28, 2024',
    readTime: '5 min read',
    views: '2.6K',
    comments: 11,
    category: 'Industry Trends',
    featured: false,
    tags: ['Trends', 'Total Cost', 'Strategy'],
    imageUrl: '/images/blog/trends.svg',
    imageAlt: 'A rising line chart over a row of shop awnings',
  },
  {
    id: 6,
    title: 'Keep your search rankings: an SEO migration guide',
    excerpt:
      'Step by step: URLs, redirects, metadata and sitemaps, so search engines follow your store to its new home.',
    ...engineering,
    date: 'November 5, 2024',
    readTime: '9 min read',
    views: '5.3K',
    comments: 18,
    category: 'SEO',
    alsoIn: ['Migration Guide'],
    featured: false,
    tags: ['SEO', 'Redirects', 'Planning'],
    imageUrl: '/images/blog/seo.svg',
    imageAlt: 'A magnifying glass over a search result with an upward arrow',
  },
];

export const allPostsLabel = 'All Posts';

export function categoriesOf(post: BlogPost): BlogCategory[] {
  return [post.category, ...(post.alsoIn ?? [])];
}

/** The category buttons with their counts, 'All Posts' first. */
export function categoryCounts(posts: BlogPost[]): Array<{ name: string; count: number }> {
  return [
    { name: allPostsLabel, count: posts.length },
    ...blogCategories.map((name) => ({
      name,
      count: posts.filter((p) => categoriesOf(p).includes(name)).length,
    })),
  ];
}

/** Free-text search over title, excerpt and tags, case-insensitive, within a category. */
export function filterPosts(posts: BlogPost[], search: string, category: string): BlogPost[] {
  const needle = search.trim().toLowerCase();
  return posts.filter((post) => {
    if (category !== allPostsLabel && !categoriesOf(post).includes(category as BlogCategory))
      return false;
    if (!needle) return true;
    return [post.title, post.excerpt, ...post.tags].some((text) =>
      text.toLowerCase().includes(needle),
    );
  });
}

/** The post whose id equals the route's id read as a number. */
export function findPost(posts: BlogPost[], id: string | undefined): BlogPost | undefined {
  if (id === undefined || id.trim() === '') return undefined;
  const wanted = Number(id);
  return posts.find((p) => p.id === wanted);
}

/** Up to three other posts sharing the category or any tag, in list order. */
export function relatedPosts(post: BlogPost, posts: BlogPost[], max = 3): BlogPost[] {
  const categories = categoriesOf(post);
  const tags = new Set(post.tags.map((t) => t.toLowerCase()));
  return posts
    .filter(
      (p) =>
        p.id !== post.id &&
        (categoriesOf(p).some((c) => categories.includes(c)) ||
          p.tags.some((t) => tags.has(t.toLowerCase()))),
    )
    .slice(0, max);
}

export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}
