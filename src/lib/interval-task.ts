/**
 * A background task run every `intervalMs`, never overlapping itself (a tick while the last run is still
 * going is skipped); `stop()` clears the timer and waits for a run in progress. A failed run is reported
 * and the next tick tries again.
 */
export function startIntervalTask(intervalMs: number, task: () => Promise<unknown>, onError: (error: unknown) => void): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = task()
      .catch(onError)
      .finally(() => (running = null));
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
