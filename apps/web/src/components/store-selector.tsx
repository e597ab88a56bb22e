import { ChevronDown, Plus, Store } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMigrations } from '../features/migrations/api/migrations-api.ts';

/**
 * The signed-in header's store selector (spec.md section 2): the user's stores (one per migration)
 * linking to /migrations/{id}, and Add New Store, which opens the new-migration form.
 */
export function StoreSelector() {
  const [open, setOpen] = useState(false);
  const [adding, setAdding] = useState(false);
  const menuId = useId();
  const container = useRef<HTMLDivElement>(null);
  const migrations = useMigrations();
  const navigate = useNavigate();

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
    <div ref={container} className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen(!open)}
        className="inline-flex items-center gap-1 rounded-md border border-slate-300 px-3 py-1.5 text-sm"
      >
        <Store size={16} aria-hidden />
        {adding ? 'New Store' : 'Stores'}
        <ChevronDown size={14} aria-hidden />
      </button>
      {open ? (
        <div
          id={menuId}
          className="absolute left-0 z-40 mt-2 w-64 rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          <ul aria-label="Your stores">
            {(migrations.data ?? []).map((m) => (
              <li key={m.id}>
                <Link
                  to={`/migrations/${m.id}`}
                  onClick={() => setOpen(false)}
                  className="block truncate px-3 py-2 text-sm hover:bg-slate-50"
                >
                  {m.storeName}
                </Link>
              </li>
            ))}
          </ul>
          <button
            type="button"
            onClick={() => {
              setAdding(true);
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
