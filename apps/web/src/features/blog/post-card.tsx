import { Clock, Eye, MessageCircle } from 'lucide-react';
import { Link } from 'react-router';
import { initialsOf, type BlogPost } from './posts.ts';

export function AuthorAvatar({ name, size = 'sm' }: { name: string; size?: 'sm' | 'lg' }) {
  return (
    <span
      aria-hidden
      className={`flex shrink-0 items-center justify-center rounded-full bg-indigo-100 font-semibold text-indigo-700 ${
        size === 'lg' ? 'h-14 w-14 text-lg' : 'h-9 w-9 text-xs'
      }`}
    >
      {initialsOf(name)}
    </span>
  );
}

export function PostStats({ post, className = '' }: { post: BlogPost; className?: string }) {
  return (
    <ul
      className={`flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-500 ${className}`}
    >
      <li className="flex items-center gap-1">
        <Eye size={15} aria-hidden />
        {post.views}
        <span className="sr-only"> views</span>
      </li>
      <li className="flex items-center gap-1">
        <MessageCircle size={15} aria-hidden />
        {post.comments}
        <span className="sr-only"> comments</span>
      </li>
      <li className="flex items-center gap-1">
        <Clock size={15} aria-hidden />
        {post.readTime}
      </li>
    </ul>
  );
}

export function CategoryBadge({ name }: { name: string }) {
  return (
    <span className="inline-flex rounded-full bg-indigo-50 px-2.5 py-1 text-xs font-semibold text-indigo-700 ring-1 ring-indigo-100">
      {name}
    </span>
  );
}

function Tags({ tags }: { tags: string[] }) {
  return (
    <ul aria-label="Tags" className="flex flex-wrap gap-1.5">
      {tags.map((tag) => (
        <li key={tag} className="rounded-md bg-slate-100 px-2 py-0.5 text-xs text-slate-600">
          #{tag}
        </li>
      ))}
    </ul>
  );
}

/**
 * One article in a list. The title is the link; it stretches over the card so the whole card is
 * clickable while screen readers hear one link with the title as its name.
 */
export function PostCard({ post, featured = false }: { post: BlogPost; featured?: boolean }) {
  return (
    <article
      className={`group relative flex min-w-0 flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition hover:-translate-y-0.5 hover:shadow-md focus-within:ring-2 focus-within:ring-indigo-500 ${
        featured ? 'md:flex-row' : ''
      }`}
    >
      <img
        src={post.imageUrl}
        alt=""
        width={1200}
        height={630}
        className={`aspect-[1200/630] w-full bg-slate-100 object-cover ${featured ? 'md:w-1/2 md:aspect-auto' : ''}`}
      />
      <div className="flex flex-1 flex-col gap-3 p-5">
        <div className="flex flex-wrap items-center gap-2">
          <CategoryBadge name={post.category} />
          {featured ? (
            <span className="rounded-full bg-amber-100 px-2.5 py-1 text-xs font-semibold text-amber-800">
              Featured
            </span>
          ) : null}
        </div>
        <h3
          className={`font-semibold tracking-tight text-slate-900 ${featured ? 'text-xl sm:text-2xl' : 'text-lg'}`}
        >
          <Link
            to={`/blog/${post.id}`}
            className="after:absolute after:inset-0 focus:outline-none group-hover:text-indigo-700"
          >
            {post.title}
          </Link>
        </h3>
        <p className="text-slate-600">{post.excerpt}</p>
        <Tags tags={featured ? post.tags : post.tags.slice(0, 2)} />
        <div className="mt-auto flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-4">
          <div className="flex min-w-0 items-center gap-2">
            <AuthorAvatar name={post.author} />
            <div className="min-w-0 text-sm">
              <p className="truncate font-medium text-slate-900">{post.author}</p>
              <p className="text-slate-500">{post.date}</p>
            </div>
          </div>
          <PostStats post={post} />
        </div>
      </div>
    </article>
  );
}
