import { useEffect, useRef } from 'react';

const colours = ['#4f46e5', '#10b981', '#f59e0b', '#ef4444', '#06b6d4', '#a855f7'];

/** Falling confetti for `durationMs` (5 s by spec), skipped for people who prefer reduced motion. */
export function Confetti({ durationMs = 5000 }: { durationMs?: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const element = canvas.current;
    const context = element?.getContext('2d');
    if (!element || !context) return;
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    element.width = window.innerWidth;
    element.height = window.innerHeight;
    const pieces = Array.from({ length: 160 }, () => ({
      x: Math.random() * element.width,
      y: -20 - Math.random() * element.height * 0.5,
      size: 6 + Math.random() * 6,
      speed: 2 + Math.random() * 3,
      drift: -1 + Math.random() * 2,
      spin: Math.random() * Math.PI,
      colour: colours[Math.floor(Math.random() * colours.length)] ?? '#4f46e5',
    }));
    const started = performance.now();
    let frame = 0;
    const draw = (now: number) => {
      context.clearRect(0, 0, element.width, element.height);
      if (now - started > durationMs) return;
      for (const p of pieces) {
        p.y += p.speed;
        p.x += p.drift;
        p.spin += 0.1;
        context.save();
        context.translate(p.x, p.y);
        context.rotate(p.spin);
        context.fillStyle = p.colour;
        context.fillRect(-p.size / 2, -p.size / 4, p.size, p.size / 2);
        context.restore();
      }
      frame = requestAnimationFrame(draw);
    };
    frame = requestAnimationFrame(draw);
    return () => cancelAnimationFrame(frame);
  }, [durationMs]);
  return (
    <canvas
      ref={canvas}
      data-testid="confetti"
      aria-hidden
      className="pointer-events-none fixed inset-0 z-40"
    />
  );
}
