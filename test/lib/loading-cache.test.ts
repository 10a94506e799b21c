/** LoadingCache: one load per key at a time, and never a value cached across an invalidation. */
import { expect, test } from "bun:test";
import { LoadingCache } from "../../src/lib/loading-cache";
import { ManualClock } from "../../src/lib/clock";

/** A source read at the start of each load; `midLoad` runs before the read value is returned. */
function source() {
  const data = new Map<string, number>();
  let loads = 0;
  let midLoad: (key: string) => void = () => {};
  const load = async (key: string) => {
    loads++;
    const value = data.get(key) ?? null;
    await Bun.sleep(1);
    midLoad(key);
    return value;
  };
  return { data, load, loads: () => loads, onMidLoad: (f: (key: string) => void) => (midLoad = f) };
}

const options = { maxEntries: 3, negativeTtlMs: 1_000 };

test("concurrent gets of one key share one load, and the value is then cached", async () => {
  const s = source();
  s.data.set("a", 1);
  const cache = new LoadingCache(s.load, new ManualClock(), options);
  expect(await Promise.all([cache.get("a"), cache.get("a"), cache.get("a")])).toEqual([1, 1, 1]);
  expect(s.loads()).toBe(1);
  expect(cache.peek("a")).toBe(1);
});

test("a change invalidated while its key loads is read again, not hidden by the older read", async () => {
  const s = source();
  s.data.set("a", 1);
  const cache = new LoadingCache(s.load, new ManualClock(), options);
  let changed = false;
  s.onMidLoad(() => {
    if (changed) return;
    changed = true;
    // The load has read 1; the change commits and is announced before the load returns.
    s.data.set("a", 2);
    cache.invalidate("a");
  });
  expect(await cache.get("a")).toBe(2);
  expect(cache.peek("a")).toBe(2);
});

test("a key invalidated during every attempt is answered but not cached", async () => {
  const s = source();
  s.data.set("a", 1);
  const cache = new LoadingCache(s.load, new ManualClock(), options);
  s.onMidLoad((key) => cache.invalidate(key));
  expect(await cache.get("a")).toBe(1); // the freshest read there is, given to this caller only
  expect(s.loads()).toBe(4);
  expect(cache.peek("a")).toBeUndefined();
});

test("invalidating more keys than it tracks never lets a load in flight keep a stale value", async () => {
  const s = source();
  s.data.set("a", 1);
  const cache = new LoadingCache(s.load, new ManualClock(), options);
  let first = true;
  s.onMidLoad((key) => {
    if (key !== "a" || !first) return;
    first = false;
    s.data.set("a", 2);
    cache.invalidate("a");
    for (const other of ["b", "c", "d", "e"]) cache.invalidate(other); // past maxEntries versions
  });
  expect(await cache.get("a")).toBe(2);
  expect(cache.peek("a")).toBe(2);
});

test("a miss is remembered for negativeTtlMs only", async () => {
  const s = source();
  const clock = new ManualClock();
  const cache = new LoadingCache(s.load, clock, options);
  expect(await cache.get("none")).toBeNull();
  expect(cache.peek("none")).toBeNull();
  clock.advance(1_001);
  expect(cache.peek("none")).toBeUndefined();
});

test("with ttlMs a value is read again once it is older than that", async () => {
  const s = source();
  s.data.set("a", 1);
  const clock = new ManualClock();
  const cache = new LoadingCache(s.load, clock, { ...options, ttlMs: 30_000 });
  expect(await cache.get("a")).toBe(1);
  s.data.set("a", 2);
  clock.advance(30_000);
  expect(cache.lookup("a")).toBe(1); // synchronous while fresh
  clock.advance(1);
  expect(cache.peek("a")).toBeUndefined();
  expect(await cache.lookup("a")).toBe(2);
  expect(s.loads()).toBe(2);
});

test("invalidateWhere drops the matching entries and repeats every load in flight", async () => {
  const s = source();
  for (const [k, v] of [
    ["a", 1],
    ["b", 2],
    ["c", 3],
  ] as const)
    s.data.set(k, v);
  const cache = new LoadingCache(s.load, new ManualClock(), options);
  await cache.get("a");
  await cache.get("b");
  let first = true;
  s.onMidLoad((key) => {
    if (key !== "c" || !first) return;
    first = false;
    // "c" has been read as 3; it changes, and the change is announced by value, not by key.
    s.data.set("c", 30);
    cache.invalidateWhere((_key, value) => value === 1 || value === 3);
  });
  expect(await cache.get("c")).toBe(30);
  expect(cache.peek("a")).toBeUndefined();
  expect(cache.peek("b")).toBe(2);
  expect(cache.peek("c")).toBe(30);
});
