import { FlaskConical } from 'lucide-react';
import { setMockMode, useMockMode } from './mock-mode.ts';

export function MockModeToggle() {
  const on = useMockMode();
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      onClick={() => setMockMode(!on)}
      title={
        on
          ? 'Mock mode: sandbox stores and demo payments'
          : 'Switch to mock mode (sandbox stores, demo payments)'
      }
      className={`inline-flex items-center gap-1 rounded-md px-2 py-2 text-sm ${on ? 'bg-amber-100 text-amber-900' : 'text-slate-600 hover:bg-slate-100'}`}
    >
      <FlaskConical size={18} aria-hidden />
      <span className="hidden md:inline">{on ? 'Mock mode on' : 'Mock mode off'}</span>
      <span className="sr-only md:hidden">Mock mode</span>
    </button>
  );
}
