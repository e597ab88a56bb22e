import { X } from 'lucide-react';
import { useId, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';

/**
 * An accessible dialog: the browser's own modal `<dialog>`, labelled by its title. The platform
 * makes the page behind it inert (so Tab stays inside), closes it on Escape (we are told, and
 * close it the React way) and gives focus back to what had it before. We only choose where focus
 * starts (the element marked data-autofocus, else the browser's pick) and where it goes when the
 * browser has nothing to give it back to. A click outside the panel dismisses it too.
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
  /**
   * Receives focus on close when the element that opened the dialog cannot: it is gone by then, or
   * it had lost focus before the dialog opened (a button disabled while its request ran).
   */
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  // Parents pass a new onClose on every render; opening must not rerun for that.
  const close = useRef(onClose);
  const fallback = useRef(returnFocusTo);
  useLayoutEffect(() => {
    close.current = onClose;
    fallback.current = returnFocusTo;
  });

  // Layout effects: shown before the first paint, and closed (focus returned) before React takes
  // the element out of the page.
  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const opener = document.activeElement;
    element.showModal();
    element.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      element.close();
      const returnTo = fallback.current?.current;
      // The browser gives focus back to what had it when the dialog opened, and only when focus
      // was in the dialog as it closed (Tab may have taken it out of the page). That is the page's
      // body when the opener had lost focus first (disabled while its request ran), and nothing
      // when the opener was replaced meanwhile (a verified connection replaces its form): keep the
      // keyboard user's place in those cases.
      queueMicrotask(() => {
        if (document.activeElement && document.activeElement !== document.body) return;
        const target =
          opener instanceof HTMLElement && opener !== document.body && opener.isConnected
            ? opener
            : returnTo?.isConnected
              ? returnTo
              : document.querySelector<HTMLElement>('main h1, h1');
        if (!target) return;
        if (!target.hasAttribute('tabindex') && target.tabIndex < 0)
          target.setAttribute('tabindex', '-1');
        target.focus();
      });
    };
  }, []);

  const accent =
    tone === 'success' ? 'text-emerald-700' : tone === 'error' ? 'text-red-700' : 'text-slate-900';
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        close.current();
      }}
      onMouseDown={(event) => {
        // The dialog element itself is only reachable on its backdrop, around the panel.
        if (event.target === event.currentTarget) close.current();
      }}
      className="m-auto max-h-[calc(100%-2rem)] w-[calc(100%-2rem)] max-w-md overflow-visible bg-transparent p-0 backdrop:bg-slate-900/50"
    >
      <div className="max-h-[calc(100vh-2rem)] overflow-y-auto rounded-xl bg-white p-6 shadow-xl">
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
    </dialog>
  );
}
