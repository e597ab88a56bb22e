import type { EngineProgress } from '@replatform/engine/migrate';

export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const WIDTH = 24;

function bar(fraction: number): string {
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * WIDTH);
  return `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}`;
}

const number = (n: number) => n.toLocaleString('en-US');

/**
 * The progress bar on stderr: redrawn in place on a terminal (at most 10 times a second), one
 * line every few seconds when stderr is a file or a pipe, so logs stay readable.
 */
export class ProgressBar {
  readonly #out: ProgressOutput;
  readonly #started = Date.now();
  #lastDraw = 0;
  #lastPhase: string | null = null;
  #drawn = false;

  constructor(out: ProgressOutput) {
    this.#out = out;
  }

  update(progress: EngineProgress): void {
    const now = Date.now();
    const phaseChanged = progress.phase !== this.#lastPhase;
    const interval = this.#out.isTTY ? 100 : 5_000;
    if (!phaseChanged && now - this.#lastDraw < interval) return;
    this.#lastDraw = now;
    this.#lastPhase = progress.phase;
    this.#draw(this.#line(progress));
  }

  message(text: string): void {
    this.#clear();
    this.#out.write(`${text}\n`);
  }

  done(): void {
    if (this.#drawn && this.#out.isTTY) this.#out.write('\n');
    this.#drawn = false;
  }

  #line(progress: EngineProgress): string {
    if (progress.phase === 'verify') return 'verifying  comparing source and destination...';
    let done = 0;
    let total = 0;
    let failed = 0;
    const parts: string[] = [];
    for (const [entity, s] of Object.entries(progress.stats)) {
      if (!s) continue;
      const handled = s.migrated + s.skipped + s.failed;
      done += handled;
      total += Math.max(s.total, handled);
      failed += s.failed;
      parts.push(`${entity} ${number(handled)}/${number(Math.max(s.total, handled))}`);
    }
    const minutes = (Date.now() - this.#started) / 60_000;
    const rate = minutes > 0 ? Math.round(done / minutes) : 0;
    const failures = failed ? `, ${number(failed)} failed` : '';
    return `${bar(total ? done / total : 0)} ${parts.join('  ')}${failures}  ${number(rate)} records/min`;
  }

  #draw(line: string): void {
    if (this.#out.isTTY) {
      const width = (this.#out.columns ?? 100) - 1;
      this.#out.write(`\r\x1b[2K${line.slice(0, width)}`);
      this.#drawn = true;
    } else {
      this.#out.write(`${line}\n`);
    }
  }

  #clear(): void {
    if (this.#drawn && this.#out.isTTY) this.#out.write('\r\x1b[2K');
    this.#drawn = false;
  }
}
