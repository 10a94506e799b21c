/**
 * Runs work for one key at a time, in arrival order, inside this worker. Pulls by one operator account
 * would otherwise race each other for its sequence number (the network applies one transaction per
 * sequence number and queues one per account); across workers the sequence rule still keeps them safe.
 */
const tails = new Map<string, Promise<unknown>>();

export function exclusive<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = tails.get(key) ?? Promise.resolve();
  const run = before.then(work);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  // Forget the key once nothing is queued behind this run, so the map does not grow with idle operators.
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return run;
}
