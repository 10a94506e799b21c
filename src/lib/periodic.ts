/** A task run every `intervalMs` until stopped, for the background work each instance does without a job queue. */
export interface Periodic {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/** Runs `task` every `intervalMs`; a tick is skipped while the previous run still runs, and a failure goes to `onError`. */
export function startPeriodic(task: () => Promise<unknown>, intervalMs: number, onError: (error: unknown) => void): Periodic {
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
