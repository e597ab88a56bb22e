import { MultiBar, type SingleBar } from 'cli-progress';
import type { EngineProgress } from '@replatform/engine/migrate';

export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const number = (n: number) => n.toLocaleString('en-US');

/**
 * A migration's progress on stderr, one cli-progress bar per data type with its records handled,
 * failures and pace: redrawn in place on a terminal (at most 10 times a second), printed every
 * five seconds when stderr is a file or a pipe, so logs stay readable.
 */
export class MigrationProgress {
  readonly #out: ProgressOutput;
  readonly #bars: MultiBar;
  readonly #byEntity = new Map<string, SingleBar>();
  readonly #started = Date.now();
  #verifying = false;

  constructor(out: ProgressOutput) {
    this.#out = out;
    this.#bars = new MultiBar({
      // cli-progress writes to a stream and asks it for isTTY and columns, which is all it uses.
      stream: out as NodeJS.WriteStream,
      format: '{entity} {bar} {value}/{total}{failed}  {rate} records/min',
      formatValue: (value, _options, kind) =>
        kind === 'value' || kind === 'total' ? number(value) : String(value),
      barsize: 24,
      barCompleteChar: '█',
      barIncompleteChar: '░',
      fps: 10,
      noTTYOutput: true,
      notTTYSchedule: 5_000,
      emptyOnZero: true,
    });
  }

  update(progress: EngineProgress): void {
    if (progress.phase === 'verify') {
      // The data types are all moved by now: their bars stay as they ended.
      if (!this.#verifying) {
        this.done();
        this.message('verifying  comparing source and destination...');
      }
      this.#verifying = true;
      return;
    }
    const minutes = (Date.now() - this.#started) / 60_000;
    for (const [entity, stats] of Object.entries(progress.stats)) {
      if (!stats) continue;
      const handled = stats.migrated + stats.skipped + stats.failed;
      const total = Math.max(stats.total, handled);
      const payload = {
        entity: entity.padEnd(10),
        failed: stats.failed ? `, ${number(stats.failed)} failed` : '',
        rate: number(minutes > 0 ? Math.round(handled / minutes) : 0),
      };
      const bar = this.#byEntity.get(entity);
      if (bar) {
        bar.setTotal(total);
        bar.update(handled, payload);
      } else {
        this.#byEntity.set(entity, this.#bars.create(total, handled, payload));
      }
    }
  }

  /** A line above the bars (or on its own before they start and after they end). */
  message(text: string): void {
    if (this.#bars.isActive) this.#bars.log(`${text}\n`);
    else this.#out.write(`${text}\n`);
  }

  /** Prints what is left to print, draws the bars one last time and leaves them on screen. */
  done(): void {
    if (!this.#bars.isActive) return;
    this.#bars.update();
    this.#bars.stop();
  }
}
