import { Mail, Search, SearchX } from 'lucide-react';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { support } from '@replatform/contracts/support';
import { BlogFooter, BlogHeader } from './blog-chrome.tsx';
import { PostCard } from './post-card.tsx';
import { allPostsLabel, blogPosts, categoryCounts, filterPosts } from './posts.ts';

function Newsletter() {
  const [email, setEmail] = useState('');
  const id = useId();
  // There is no mailing list service: the request goes to support as an e-mail the reader sends.
  const subscribe = (event: FormEvent) => {
    event.preventDefault();
    const body = `Please send new Replatform blog articles to ${email.trim() || 'this address'}.`;
    window.location.href = `mailto:${support.email}?subject=${encodeURIComponent('Blog newsletter')}&body=${encodeURIComponent(body)}`;
  };
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="mt-16 rounded-2xl bg-gradient-to-br from-slate-900 to-indigo-900 px-6 py-10 text-white sm:px-10"
    >
      <div className="grid items-center gap-6 md:grid-cols-2">
        <div>
          <h2 id={`${id}-title`} className="flex items-center gap-2 text-2xl font-semibold">
            <Mail aria-hidden /> Get new articles by e-mail
          </h2>
          <p className="mt-2 text-indigo-100">
            Migration tips and platform news, about once a month. Subscribe opens your e-mail app
            with the request ready to send.
          </p>
        </div>
        <form onSubmit={subscribe} className="flex flex-col gap-2 sm:flex-row">
          <label htmlFor={id} className="sr-only">
            Email address
          </label>
          <input
            id={id}
            type="email"
            autoComplete="email"
            placeholder="you@yourstore.com"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className="min-w-0 flex-1 rounded-lg border border-white/20 bg-white/10 px-3 py-2.5 text-white placeholder:text-indigo-200 focus:border-white focus:outline-none"
          />
          <button
            type="submit"
            className="rounded-lg bg-white px-5 py-2.5 font-semibold text-indigo-900 shadow-sm hover:bg-indigo-50"
          >
            Subscribe
          </button>
        </form>
      </div>
    </section>
  );
}

/** /blogs (spec.md section 2): search, categories, featured and latest articles, newsletter. */
export function BlogsPage() {
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState(allPostsLabel);
  const searchId = useId();
  const categories = useMemo(() => categoryCounts(blogPosts), []);
  const found = filterPosts(blogPosts, search, category);
  const featured = found.filter((p) => p.featured);
  const latest = found.filter((p) => !p.featured);
  const foundText = `${found.length} ${found.length === 1 ? 'article' : 'articles'} found`;
  const showAll = () => {
    setSearch('');
    setCategory(allPostsLabel);
  };

  return (
    <div className="flex min-h-screen flex-col">
      <BlogHeader />
      <main className="flex-1">
        <section className="bg-gradient-to-br from-indigo-700 via-indigo-600 to-violet-600 text-white">
          <div className="mx-auto max-w-7xl px-4 py-14 sm:py-20">
            <h1 className="text-3xl font-bold tracking-tight sm:text-5xl">Replatform Blog</h1>
            <p className="mt-3 max-w-2xl text-lg text-indigo-100">
              Practical advice on moving a store between Magento 2, Shopify, WooCommerce and
              BigCommerce, from the people who run the migrations.
            </p>
            <div className="relative mt-8 max-w-xl">
              <label htmlFor={searchId} className="sr-only">
                Search articles
              </label>
              <Search
                size={20}
                aria-hidden
                className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-400"
              />
              <input
                id={searchId}
                type="search"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                placeholder="Search articles, tips, and guides..."
                className="w-full rounded-xl border-0 bg-white py-3.5 pr-4 pl-11 text-slate-900 shadow-lg placeholder:text-slate-400 focus:ring-4 focus:ring-indigo-300 focus:outline-none"
              />
            </div>
          </div>
        </section>

        <div className="mx-auto max-w-7xl px-4 py-10">
          <div role="group" aria-label="Categories" className="flex flex-wrap gap-2">
            {categories.map(({ name, count }) => (
              <button
                key={name}
                type="button"
                aria-pressed={category === name}
                onClick={() => setCategory(name)}
                className={`rounded-full px-4 py-2 text-sm font-medium shadow-sm ring-1 transition ${
                  category === name
                    ? 'bg-indigo-600 text-white ring-indigo-600'
                    : 'bg-white text-slate-700 ring-slate-200 hover:bg-slate-50'
                }`}
              >
                {name}{' '}
                <span className={category === name ? 'text-indigo-100' : 'text-slate-400'}>
                  ({count})
                </span>
              </button>
            ))}
          </div>
          {/* Above both lists, as it counts the featured articles and the latest ones. */}
          <p
            role="status"
            aria-live="polite"
            className={found.length ? 'mt-6 text-sm text-slate-500' : 'sr-only'}
          >
            {found.length ? foundText : 'No articles found'}
          </p>

          {found.length === 0 ? (
            <div className="mt-12 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center">
              <SearchX size={40} aria-hidden className="mx-auto text-slate-400" />
              <h2 className="mt-4 text-xl font-semibold text-slate-900">No articles found</h2>
              <p className="mt-2 text-slate-600">
                Try adjusting your search terms or browse all categories.
              </p>
              <button
                type="button"
                onClick={showAll}
                className="mt-6 rounded-lg bg-indigo-600 px-5 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-indigo-700"
              >
                Show All Articles
              </button>
            </div>
          ) : (
            <>
              {featured.length ? (
                <section aria-labelledby="featured-title" className="mt-6">
                  <h2 id="featured-title" className="text-2xl font-semibold text-slate-900">
                    Featured Articles
                  </h2>
                  <div className="mt-5 grid gap-6">
                    {featured.map((post) => (
                      <PostCard key={post.id} post={post} featured />
                    ))}
                  </div>
                </section>
              ) : null}
              <section aria-labelledby="latest-title" className="mt-12">
                <h2 id="latest-title" className="text-2xl font-semibold text-slate-900">
                  Latest Articles
                </h2>
                {latest.length ? (
                  <div className="mt-5 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
                    {latest.map((post) => (
                      <PostCard key={post.id} post={post} />
                    ))}
                  </div>
                ) : (
                  <p className="mt-3 text-slate-600">Every matching article is featured above.</p>
                )}
              </section>
            </>
          )}
          <Newsletter />
        </div>
      </main>
      <BlogFooter />
    </div>
  );
}
