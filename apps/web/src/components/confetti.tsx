import confetti from 'canvas-confetti';
import { useEffect, useRef } from 'react';

const colors = ['#4f46e5', '#10b981', '#f59e0b', '#ef4444', '#06b6d4', '#a855f7'];

/**
 * canvas-confetti bursts from both sides for `durationMs` (5 s by spec), on our own canvas (the
 * page's CSP allows no worker from a blob), and nothing for people who prefer reduced motion.
 */
export function Confetti({ durationMs = 5000 }: { durationMs?: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const fire = confetti.create(canvas.current, {
      resize: true,
      useWorker: false,
      disableForReducedMotion: true,
    });
    const burst = () => {
      for (const x of [0.1, 0.5, 0.9])
        void fire({
          particleCount: 40,
          spread: 70,
          startVelocity: 45,
          origin: { x, y: 0.7 },
          colors,
        });
    };
    burst();
    // A fresh burst every second until the last second, so the last pieces land as it ends.
    const repeat = setInterval(burst, 1000);
    const stop = setTimeout(() => clearInterval(repeat), Math.max(0, durationMs - 1500));
    return () => {
      clearInterval(repeat);
      clearTimeout(stop);
      fire.reset();
    };
  }, [durationMs]);
  return (
    <canvas
      ref={canvas}
      data-testid="confetti"
      aria-hidden
      className="pointer-events-none fixed inset-0 z-40 h-full w-full"
    />
  );
}
