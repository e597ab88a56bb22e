import { X } from 'lucide-react';
import { useEffect, useId, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';

const focusableSelector =
  'button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

/** Puts focus on an element, making it focusable by script first if it is not (e.g. a heading). */
function focusElement(element: HTMLElement): void {
  if (element.tabIndex < 0 && !element.hasAttribute('tabindex'))
    element.setAttribute('tabindex', '-1');
  element.focus();
}

/**
 * Where focus goes when a dialog closes: back to what had it before, unless that is gone (a
 * verified connection replaces the form whose button opened the dialog) or was nothing; then the
 * caller's fallback, else the page's heading, so keyboard and screen-reader users keep their place.
 */
function restoreFocus(previous: HTMLElement | null, fallback: HTMLElement | null | undefined) {
  if (previous && previous !== document.body && previous.isConnected) {
    previous.focus();
    if (document.activeElement === previous) return;
  }
  const target = fallback?.isConnected
    ? fallback
    : document.querySelector<HTMLElement>('main h1, h1');
  if (target) focusElement(target);
}

/**
 * An accessible dialog, labelled by its title: focus moves into it when it opens (to the element
 * marked data-autofocus, else the first control) and back when it closes, Tab stays inside,
 * Escape, the close button and a click outside dismiss it.
 */
export function Modal({
  title,
  onClose,
  children,
  tone = 'neutral',
  returnFocusTo,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  tone?: 'neutral' | 'success' | 'error';
  /** Receives focus on close when the element that opened the dialog no longer exists. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  // Parents pass a new onClose on every render; the dialog's set-up must not rerun for that, or
  // focus would jump back to the first control each time the page behind it updates.
  const close = useRef(onClose);
  const fallback = useRef(returnFocusTo);
  useLayoutEffect(() => {
    close.current = onClose;
    fallback.current = returnFocusTo;
  });

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const focusables = () =>
      Array.from(panel.current?.querySelectorAll<HTMLElement>(focusableSelector) ?? []).filter(
        (el) => !el.hasAttribute('disabled'),
      );
    (focusables().find((el) => el.dataset.autofocus !== undefined) ?? focusables()[0])?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        close.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusables();
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      const inside = panel.current?.contains(document.activeElement) ?? false;
      if (!inside) {
        event.preventDefault();
        (event.shiftKey ? last : first).focus();
      } else if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      restoreFocus(previous, fallback.current?.current);
    };
  }, []);

  const accent =
    tone === 'success' ? 'text-emerald-700' : tone === 'error' ? 'text-red-700' : 'text-slate-900';
  return (
    <div
      className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/50 p-4"
      onMouseDown={() => close.current()}
    >
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="max-h-full w-full max-w-md overflow-y-auto rounded-xl bg-white p-6 shadow-xl"
        onMouseDown={(e) => e.stopPropagation()}
      >
        <div className="flex items-start justify-between gap-4">
          <h2 id={titleId} className={`text-lg font-semibold ${accent}`}>
            {title}
          </h2>
          <button
            type="button"
            onClick={() => close.current()}
            aria-label="Close dialog"
            className="rounded p-1 text-slate-500 hover:bg-slate-100"
          >
            <X size={18} aria-hidden />
          </button>
        </div>
        <div className="mt-3 text-slate-700">{children}</div>
      </div>
    </div>
  );
}
