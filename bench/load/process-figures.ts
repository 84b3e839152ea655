import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

// What a process of the load bench costs, read from /proc (Linux): its
// resident memory and its CPU time so far.

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** VmRSS of a process, MB (null once it is gone). */
export function rssMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match?.[1] ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** User + system CPU seconds of a process so far. */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** A process's RSS sampled over the run, and its CPU time between `begin` and `end`. */
export class ProcessMeter {
  private readonly rss: number[] = [];
  private cpuAtBegin = 0;
  private cpuAtEnd = 0;
  private rssAtBegin: number | null = null;
  private rssAtEnd: number | null = null;

  constructor(private readonly pid: number | undefined) {}

  begin(): void {
    this.cpuAtBegin = cpuSeconds(this.pid);
    this.rssAtBegin = rssMb(this.pid);
  }

  sample(): void {
    const value = rssMb(this.pid);
    if (value !== null) this.rss.push(value);
  }

  end(): void {
    this.cpuAtEnd = cpuSeconds(this.pid);
    this.rssAtEnd = rssMb(this.pid);
    if (this.rssAtEnd !== null) this.rss.push(this.rssAtEnd);
  }

  /** CPU seconds used in the run, that over `seconds` as a percentage of one core, and RSS at the start, peak and end (MB). */
  figures(seconds: number): { cpuSeconds: number; cpuPercentOfOneCore: number; rssStartMb: number | null; rssPeakMb: number | null; rssEndMb: number | null } {
    const used = this.cpuAtEnd - this.cpuAtBegin;
    const round1 = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);
    return {
      cpuSeconds: round1(used) ?? 0,
      cpuPercentOfOneCore: round1((used / seconds) * 100) ?? 0,
      rssStartMb: round1(this.rssAtBegin),
      rssPeakMb: this.rss.length > 0 ? round1(Math.max(...this.rss)) : null,
      rssEndMb: round1(this.rssAtEnd),
    };
  }
}

/** Busy and total jiffies of the whole machine so far (/proc/stat), every core together. */
function machineJiffies(): { busy: number; total: number } {
  try {
    const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    // idle and iowait
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/**
 * The whole machine's CPU over the run, in % of one core (200 = both of two
 * cores busy), so that what other processes took beside the bench's own
 * (measured: BFF, emulator, load generator) shows.
 */
export class MachineMeter {
  private start = machineJiffies();

  begin(): void {
    this.start = machineJiffies();
  }

  busyPercentOfOneCore(cores: number): number {
    const end = machineJiffies();
    const total = end.total - this.start.total;
    return total > 0 ? Math.round(((end.busy - this.start.busy) / total) * cores * 1000) / 10 : 0;
  }
}
