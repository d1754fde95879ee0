/**
 * Per-chain progress on stderr during `gpmcmc sample`: on a terminal, one line per chain
 * rewritten in place; elsewhere (a log file, a pipe), a plain line per chain now and then.
 */
import type { Progress } from "../samplers/chain/driver.js";

/** One chain's progress as a line: draws done, phase, acceptance so far, time elapsed and left. */
export function formatProgress(p: Progress): string {
  const pct = Math.floor((100 * p.iteration) / p.iterations);
  const perTransition = p.elapsedSeconds / p.iteration;
  const left = perTransition * (p.iterations - p.iteration);
  const accept = Number.isFinite(p.acceptanceRate) ? p.acceptanceRate.toFixed(2) : "n/a";
  const div = p.divergences > 0 ? `, ${p.divergences} divergent` : "";
  return `chain ${p.chain + 1}: ${p.iteration}/${p.iterations} (${pct}%) ${p.phase}, acceptance ${accept}${div}, ` +
    `${duration(p.elapsedSeconds)} elapsed, ${p.iteration === p.iterations ? "done" : `~${duration(left)} left`}`;
}

function duration(s: number): string {
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s - 60 * m)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

export interface ProgressDisplayOptions {
  chains: number;
  /** Rewrite one line per chain in place (a terminal), or write plain lines. */
  tty: boolean;
  write: (text: string) => void;
  /** Plain lines: at most one per chain this often, besides its first and last (default 10 s). */
  intervalSeconds?: number;
  /** Terminal width: a line rewritten in place is cut to fit (a wrapped line would break the layout). */
  columns?: number;
  /** Clock in milliseconds (tests). */
  now?: () => number;
}

export class ProgressDisplay {
  private readonly lines: string[];
  private readonly lastShown: number[];
  private drawn = false;
  private lastRedraw = -Infinity;
  private readonly now: () => number;

  constructor(private readonly options: ProgressDisplayOptions) {
    this.lines = Array.from({ length: options.chains }, (_, c) => `chain ${c + 1}: waiting`);
    this.lastShown = new Array<number>(options.chains).fill(-Infinity);
    this.now = options.now ?? (() => performance.now());
  }

  update(p: Progress): void {
    const line = formatProgress(p);
    const t = this.now();
    const last = p.iteration === p.iterations;
    if (this.options.tty) {
      this.lines[p.chain] = line;
      // redraw at most 10 times a second, and always for a chain's last report
      if (last || t - this.lastRedraw >= 100) this.redraw(t);
    } else if (last || t - this.lastShown[p.chain] >= 1000 * (this.options.intervalSeconds ?? 10)) {
      this.lastShown[p.chain] = t;
      this.options.write(line + "\n");
    }
  }

  private redraw(t: number): void {
    this.lastRedraw = t;
    const up = this.drawn ? `\x1b[${this.lines.length}A` : "";
    this.drawn = true;
    const width = this.options.columns !== undefined && this.options.columns > 1 ? this.options.columns - 1 : Infinity;
    this.options.write(up + this.lines.map((l) => `\r\x1b[2K${l.length > width ? l.slice(0, width) : l}\n`).join(""));
  }
}
