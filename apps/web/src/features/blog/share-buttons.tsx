import { Check, Link2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

/** A small mark for a network: its initial on a tile in the network's colour. */
function NetworkMark({ text, color }: { text: string; color: string }) {
  return (
    <svg viewBox="0 0 20 20" width={18} height={18} aria-hidden>
      <rect width="20" height="20" rx="4" fill={color} />
      <text
        x="10"
        y="14.5"
        textAnchor="middle"
        fontFamily="system-ui, sans-serif"
        fontSize={text.length > 1 ? 10 : 13}
        fontWeight="700"
        fill="#fff"
      >
        {text}
      </text>
    </svg>
  );
}

const networks = [
  {
    name: 'Twitter',
    mark: <NetworkMark text="X" color="#0f172a" />,
    url: (page: string, title: string) =>
      `https://twitter.com/intent/tweet?url=${encodeURIComponent(page)}&text=${encodeURIComponent(title)}`,
  },
  {
    name: 'Facebook',
    mark: <NetworkMark text="f" color="#1877f2" />,
    url: (page: string) =>
      `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(page)}`,
  },
  {
    name: 'LinkedIn',
    mark: <NetworkMark text="in" color="#0a66c2" />,
    url: (page: string) =>
      `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(page)}`,
  },
];

/** spec.md section 2, Blog post: network shares open a 600x400 window; Copy link confirms 2 s. */
export function ShareButtons({ title }: { title: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 2000);
    } catch (error) {
      console.error('Could not copy the link', error);
    }
  };

  const button =
    'flex items-center gap-2 rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50';
  return (
    <div role="group" aria-label="Share this article" className="flex flex-wrap gap-2">
      {networks.map((n) => (
        <button
          key={n.name}
          type="button"
          className={button}
          aria-label={`Share on ${n.name}`}
          onClick={() => {
            const popup = window.open(
              n.url(window.location.href, title),
              '_blank',
              'width=600,height=400',
            );
            // The network's page gets no handle back to ours.
            if (popup) popup.opener = null;
          }}
        >
          {n.mark}
          <span className="hidden sm:inline">{n.name}</span>
        </button>
      ))}
      <button type="button" className={button} onClick={copy}>
        {copied ? (
          <Check size={18} aria-hidden className="text-emerald-600" />
        ) : (
          <Link2 size={18} aria-hidden />
        )}
        {copied ? 'Link copied' : 'Copy link'}
      </button>
    </div>
  );
}
