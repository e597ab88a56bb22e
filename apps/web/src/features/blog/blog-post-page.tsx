import { ArrowLeft, ArrowRight, CalendarDays, FileQuestion } from 'lucide-react';
import { lazy, Suspense, useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { useSession } from '../session/api/get-session.ts';
import { BlogFooter, BlogHeader } from './blog-chrome.tsx';
import { AuthorAvatar, CategoryBadge, PostCard, PostStats } from './post-card.tsx';
import { blogPosts, findPost, relatedPosts } from './posts.ts';
import { ShareButtons } from './share-buttons.tsx';

// The body and its sanitiser arrive while the post's header is already on screen.
const PostContent = lazy(async () => ({ default: (await import('./post-body.tsx')).PostContent }));

function BackToBlog() {
  return (
    <Link
      to="/blogs"
      className="inline-flex items-center gap-1.5 text-sm font-medium text-indigo-700 hover:text-indigo-900"
    >
      <ArrowLeft size={16} aria-hidden /> Back to Blog
    </Link>
  );
}

/** /blog/{id} (spec.md section 2): one article, or 'Post Not Found' for an unknown id. */
export function BlogPostPage() {
  const { id } = useParams();
  const post = findPost(blogPosts, id);
  const session = useSession();
  // Signed-in visitors already have the app's header here (layout rules); others get the blog's.
  const signedIn = Boolean(session.data);
  const showHeader = !session.isPending && !signedIn;

  useEffect(() => {
    const previous = document.title;
    document.title = post ? `${post.title} — Replatform Blog` : 'Post Not Found — Replatform Blog';
    return () => {
      document.title = previous;
    };
  }, [post]);

  if (!post) {
    return (
      <div className="flex min-h-screen flex-col">
        {showHeader ? <BlogHeader /> : null}
        <main className="mx-auto flex w-full max-w-3xl flex-1 flex-col items-center px-4 py-20 text-center">
          <FileQuestion size={48} aria-hidden className="text-slate-400" />
          <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">Post Not Found</h1>
          <p className="mt-3 text-slate-600">The blog post you're looking for doesn't exist.</p>
          <div className="mt-8">
            <BackToBlog />
          </div>
        </main>
        <BlogFooter />
      </div>
    );
  }

  const related = relatedPosts(post, blogPosts);
  return (
    <div className="flex min-h-screen flex-col">
      {showHeader ? <BlogHeader /> : null}
      <main className="flex-1">
        <article>
          <header className="border-b border-slate-200 bg-white">
            <div className="mx-auto max-w-3xl px-4 pt-8 pb-10">
              <BackToBlog />
              <div className="mt-6">
                <CategoryBadge name={post.category} />
              </div>
              <h1 className="mt-4 text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-4xl">
                {post.title}
              </h1>
              <p className="mt-4 text-lg text-slate-600">{post.excerpt}</p>
              <div className="mt-6 flex flex-wrap items-center gap-x-5 gap-y-2 text-sm text-slate-500">
                <span className="flex items-center gap-1">
                  <CalendarDays size={15} aria-hidden />
                  {post.date}
                </span>
                <PostStats post={post} />
              </div>
              <div className="mt-6 flex flex-col gap-5">
                <div className="flex items-center gap-3">
                  <AuthorAvatar name={post.author} size="lg" />
                  <div>
                    <p className="font-semibold text-slate-900">{post.author}</p>
                    <p className="text-sm text-slate-500">{post.authorRole}</p>
                  </div>
                </div>
                <ShareButtons title={post.title} />
              </div>
            </div>
          </header>
          <div className="mx-auto max-w-3xl px-4 py-10">
            <img
              src={post.imageUrl}
              alt={post.imageAlt}
              width={1200}
              height={630}
              className="aspect-[1200/630] w-full rounded-2xl bg-slate-100 object-cover shadow-sm"
            />
            <Suspense fallback={<div className="mt-4" aria-busy="true" />}>
              <PostContent id={post.id} className="mt-4 text-base sm:text-lg" />
            </Suspense>
            <ul aria-label="Tags" className="mt-10 flex flex-wrap gap-2">
              {post.tags.map((tag) => (
                <li
                  key={tag}
                  className="rounded-md bg-slate-100 px-2.5 py-1 text-sm text-slate-700"
                >
                  #{tag}
                </li>
              ))}
            </ul>
            <aside
              aria-label="About the author"
              className="mt-10 flex gap-4 rounded-2xl border border-slate-200 bg-white p-5"
            >
              <AuthorAvatar name={post.author} size="lg" />
              <div>
                <p className="font-semibold text-slate-900">{post.author}</p>
                <p className="text-sm text-slate-500">{post.authorRole}</p>
                <p className="mt-2 text-slate-700">{post.authorBio}</p>
              </div>
            </aside>
          </div>
        </article>

        <div className="mx-auto max-w-3xl px-4">
          <section
            aria-labelledby="cta-title"
            className="rounded-2xl bg-gradient-to-br from-indigo-700 to-violet-600 px-6 py-8 text-white"
          >
            <h2 id="cta-title" className="text-2xl font-semibold">
              Ready to move your store?
            </h2>
            <p className="mt-2 text-indigo-100">
              Connect your stores and see your exact price before you pay: $99 plus $0.01 per
              record.
            </p>
            <Link
              to={signedIn ? '/migrations' : '/signup'}
              className="mt-5 inline-flex items-center gap-2 rounded-lg bg-white px-5 py-2.5 font-semibold text-indigo-800 shadow-sm hover:bg-indigo-50"
            >
              {signedIn ? 'Go to your migrations' : 'Create your free account'}
              <ArrowRight size={18} aria-hidden />
            </Link>
          </section>
        </div>

        {related.length ? (
          <section aria-labelledby="related-title" className="mx-auto max-w-5xl px-4 py-12">
            <h2 id="related-title" className="text-2xl font-semibold text-slate-900">
              Related Articles
            </h2>
            <div className="mt-5 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {related.map((p) => (
                <PostCard key={p.id} post={p} />
              ))}
            </div>
          </section>
        ) : null}
      </main>
      <BlogFooter />
    </div>
  );
}
