/**
 * Calls `onOrphaned` once when the process that started us goes away. `npm start` does not pass SIGTERM on
 * to its child in every npm version: killing npm would leave us (and our database) running, re-parented.
 * Polling the parent pid is the portable check (no parent-death signal outside Linux).
 */
export function watchParent(onOrphaned: () => void, everyMs = 500): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onOrphaned();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
