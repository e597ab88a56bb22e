import { Check, ChevronDown, Plus, Store } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMigrations } from '../features/migrations/api/migrations-api.ts';
import {
  chooseStore,
  startNewStore,
  useCurrentStore,
} from '../features/migrations/current-store.ts';

/**
 * The signed-in header's store selector (spec.md section 2): the user's stores (one per migration)
 * linking to /migrations/{id}; choosing one makes it the current store, whose name the button
 * shows. Add New Store starts new-store creation (the new-migration form) and the button then
 * reads New Store until a store is created or chosen.
 */
export function StoreSelector() {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const container = useRef<HTMLDivElement>(null);
  const migrations = useMigrations();
  const current = useCurrentStore();
  const navigate = useNavigate();
  const list = migrations.data ?? [];
  // Only a store of this user's own list is shown (the stored id may be another account's).
  const chosen = current?.kind === 'store' ? list.find((m) => m.id === current.id) : undefined;
  const label = current?.kind === 'new' ? 'New Store' : (chosen?.storeName ?? 'Stores');

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    const escape = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);

  return (
    <div ref={container} className="relative min-w-0">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        title="Current store"
        onClick={() => setOpen(!open)}
        className="inline-flex max-w-[14rem] items-center gap-1 rounded-md border border-slate-300 px-3 py-1.5 text-sm"
      >
        <Store size={16} aria-hidden className="shrink-0" />
        <span className="truncate">{label}</span>
        <ChevronDown size={14} aria-hidden className="shrink-0" />
      </button>
      {open ? (
        <div
          id={menuId}
          className="absolute left-0 z-40 mt-2 w-64 max-w-[calc(100vw-2rem)] rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          <ul aria-label="Your stores" className="max-h-80 overflow-y-auto">
            {list.map((m) => {
              const selected = m.id === chosen?.id && current?.kind === 'store';
              return (
                <li key={m.id}>
                  <Link
                    to={`/migrations/${m.id}`}
                    aria-current={selected ? 'true' : undefined}
                    onClick={() => {
                      chooseStore(m.id);
                      setOpen(false);
                    }}
                    className="flex items-center justify-between gap-2 px-3 py-2 text-sm hover:bg-slate-50"
                  >
                    <span className="truncate">{m.storeName}</span>
                    {selected ? (
                      <Check size={16} aria-hidden className="shrink-0 text-indigo-600" />
                    ) : null}
                  </Link>
                </li>
              );
            })}
          </ul>
          <button
            type="button"
            onClick={() => {
              startNewStore();
              setOpen(false);
              navigate('/migrations', { state: { view: 'new' } });
            }}
            className="flex w-full items-center gap-2 border-t border-slate-100 px-3 py-2 text-left text-sm font-medium text-indigo-700 hover:bg-indigo-50"
          >
            <Plus size={16} aria-hidden /> Add New Store
          </button>
        </div>
      ) : null}
    </div>
  );
}
