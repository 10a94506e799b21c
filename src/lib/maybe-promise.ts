/**
 * Values that are usually in memory and only sometimes loaded. Hot paths (every /check) stay
 * synchronous while their caches are warm, so a request pays no promise, no microtask and no
 * async frame; a miss turns the rest of the computation into a promise.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `f(value)` at once for a plain value, or once the promise settles. */
export function andThen<T, R>(value: MaybePromise<T>, f: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(f) : f(value);
}
