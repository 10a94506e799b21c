/**
 * Structured JSON logging, one object per line on stdout. Lines are buffered and written in batches so
 * that logging every request does not cost a write(2) per request on the hot path; `flush()` drains the
 * buffer (called on an interval and at shutdown); `flushSync()` writes it before returning, for exit and
 * crash handlers, where a write still pending when the process ends is lost. Callers must never pass a
 * credential in `fields`.
 */
// The one synchronous write of the service: nothing standard writes to a file descriptor synchronously.
import { writeSync } from "node:fs";

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export class Logger {
  private buffer: string[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;

  private readonly sink: (text: string) => void;
  private readonly syncSink: (text: string) => void;

  /** Writes to stdout by default; a custom `sink` serves both flushes unless a synchronous one is given too. */
  constructor(
    private level: LogLevel = "info",
    sink?: (text: string) => void,
    syncSink?: (text: string) => void,
  ) {
    this.sink = sink ?? ((text) => void process.stdout.write(text));
    this.syncSink = syncSink ?? sink ?? ((text) => void writeSync(1, text));
  }

  debug(msg: string, fields?: Record<string, unknown>) {
    this.log("debug", msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>) {
    this.log("info", msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>) {
    this.log("warn", msg, fields);
  }
  error(msg: string, fields?: Record<string, unknown>) {
    this.log("error", msg, fields);
  }

  /** Lets hot paths skip building a line that would be dropped. */
  enabled(level: Exclude<LogLevel, "silent">): boolean {
    return RANK[level] >= RANK[this.level];
  }

  log(level: Exclude<LogLevel, "silent">, msg: string, fields?: Record<string, unknown>): void {
    if (RANK[level] < RANK[this.level]) return;
    this.buffer.push(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }));
    if (this.buffer.length >= 512) this.flush();
    else this.timer ??= setInterval(() => this.flush(), 100);
  }

  flushSync(): void {
    if (this.buffer.length === 0) return;
    const text = this.buffer.join("\n") + "\n";
    this.buffer = [];
    this.syncSink(text);
  }

  flush(): void {
    if (this.buffer.length === 0) {
      if (this.timer) clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    const text = this.buffer.join("\n") + "\n";
    this.buffer = [];
    this.sink(text);
  }
}
