import {
  ChevronLeft,
  ChevronRight,
  CircleCheckBig,
  CreditCard,
  Database,
  Pause,
  Play,
  PlugZap,
  Rocket,
} from 'lucide-react';
import { useEffect, useState } from 'react';
import { Modal } from '../../components/modal.tsx';
import { guideSteps } from './migration-guide.ts';

const icons = [PlugZap, Database, CreditCard, Rocket, CircleCheckBig];
const advanceEveryMs = 6000;

/** Fills over the time a step stays on screen while playing. */
function TimerBar() {
  const [started, setStarted] = useState(false);
  useEffect(() => {
    // Start from empty on screen, then grow, so the width change is animated.
    const timer = setTimeout(() => setStarted(true), 30);
    return () => clearTimeout(timer);
  }, []);
  return (
    <div
      className="h-full bg-indigo-500 transition-[width] ease-linear motion-reduce:transition-none"
      style={{ width: started ? '100%' : '0%', transitionDuration: `${advanceEveryMs - 30}ms` }}
    />
  );
}

/**
 * The help centre's tutorial: the five steps of a migration, one at a time, played automatically
 * when asked (and only then), or stepped through by hand.
 */
export function WalkthroughDialog({ onClose }: { onClose: () => void }) {
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const last = guideSteps.length - 1;
  const step = guideSteps[index] ?? guideSteps[0];
  const Icon = icons[index] ?? PlugZap;

  useEffect(() => {
    if (!playing) return;
    if (index >= last) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(() => setIndex((i) => Math.min(i + 1, last)), advanceEveryMs);
    return () => clearTimeout(timer);
  }, [playing, index, last]);

  const go = (next: number) => {
    setPlaying(false);
    setIndex(Math.max(0, Math.min(last, next)));
  };
  const control =
    'flex items-center gap-1 rounded-lg border border-slate-300 px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-40';

  return (
    <Modal title="Migration walkthrough" onClose={onClose}>
      <div className="mt-4">
        <div
          aria-live="polite"
          className="rounded-xl bg-gradient-to-br from-indigo-600 to-violet-600 p-5 text-white"
        >
          <p className="text-xs font-semibold tracking-wide text-indigo-100 uppercase">
            Step {index + 1} of {guideSteps.length}
          </p>
          <div className="mt-3 flex items-center gap-3">
            <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-xl bg-white/15">
              <Icon size={26} aria-hidden />
            </span>
            <h3 className="text-xl font-semibold">{step.title}</h3>
          </div>
          <p className="mt-3 text-indigo-50">{step.summary}</p>
        </div>
        <ul className="mt-4 space-y-2 text-sm text-slate-700">
          {step.details.map((detail) => (
            <li key={detail} className="flex gap-2">
              <span aria-hidden className="mt-2 h-1.5 w-1.5 shrink-0 rounded-full bg-indigo-500" />
              <span>{detail}</span>
            </li>
          ))}
        </ul>
        {playing ? (
          <div className="mt-4 h-1 overflow-hidden rounded-full bg-slate-100" aria-hidden>
            <TimerBar key={index} />
          </div>
        ) : null}
        <div className="mt-5 flex flex-wrap items-center justify-between gap-3">
          <div className="flex gap-1.5">
            {guideSteps.map((s, i) => (
              <button
                key={s.title}
                type="button"
                onClick={() => go(i)}
                aria-label={`Step ${i + 1}: ${s.title}`}
                aria-current={i === index ? 'step' : undefined}
                className={`h-2.5 rounded-full transition-all ${i === index ? 'w-6 bg-indigo-600' : 'w-2.5 bg-slate-300 hover:bg-slate-400'}`}
              />
            ))}
          </div>
          <div className="flex gap-2">
            <button
              type="button"
              className={control}
              onClick={() => go(index - 1)}
              disabled={index === 0}
            >
              <ChevronLeft size={16} aria-hidden /> Previous
            </button>
            <button
              type="button"
              className={control}
              onClick={() => {
                if (!playing && index === last) setIndex(0);
                setPlaying((p) => !p);
              }}
              aria-pressed={playing}
            >
              {playing ? <Pause size={16} aria-hidden /> : <Play size={16} aria-hidden />}
              {playing ? 'Pause' : 'Play'}
            </button>
            <button
              type="button"
              className={control}
              onClick={() => go(index + 1)}
              disabled={index === last}
            >
              Next <ChevronRight size={16} aria-hidden />
            </button>
          </div>
        </div>
      </div>
    </Modal>
  );
}
