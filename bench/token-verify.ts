/**
 * What authenticating an embed credential costs, without HTTP: jose's HS256 verification of a session JWT
 * (with the canonical-spelling check), a be_tok_ token's HMAC, and the verdict remembered by EmbedTokens,
 * which is what every request after a token's first pays.
 *
 *   bun bench/token-verify.ts        BENCH_ITERATIONS (20000) per run, 5 runs
 *
 * Prints µs per verification: the median and the fastest of the runs (on a busy machine the fastest is the
 * steadier figure).
 */
import { EmbedTokens } from "../src/auth/embed-tokens";
import { TokenKeys } from "../src/auth/token-keys";
import { signEmbedToken, signSessionJwt, verifyEmbedToken, type EmbedClaims } from "../src/auth/tokens";

const iterations = Number(process.env.BENCH_ITERATIONS ?? 20_000);
const clock = { now: () => Date.now() };
const keys = await TokenKeys.create("bench-token-signing-secret-0123456789abcdef", "bench-previous-signing-secret-0123456789ab");
const nowSeconds = Math.floor(Date.now() / 1000);
const id = (prefix: string) => `${prefix}_${"x".repeat(24)}`;
const claims: EmbedClaims = {
  jti: id("tok"),
  teamId: id("team"),
  environment: "development",
  companyId: id("comp"),
  userId: id("user"),
  issuedByKeyId: id("key"),
  exp: nowSeconds + 3600,
};
const jwt = await signSessionJwt(keys.current, claims, nowSeconds);
const beTok = signEmbedToken(keys.current.secret, claims);
const remembered = new EmbedTokens(keys, clock);

async function measure(name: string, verify: () => unknown): Promise<void> {
  for (let i = 0; i < 2_000; i++) if (!(await verify())) throw new Error(`${name}: refused`);
  const runs: number[] = [];
  for (let run = 0; run < 5; run++) {
    const start = Bun.nanoseconds();
    for (let i = 0; i < iterations; i++) await verify();
    runs.push((Bun.nanoseconds() - start) / iterations / 1000);
  }
  runs.sort((a, b) => a - b);
  console.log(JSON.stringify({ name, medianUs: Number(runs[2]!.toFixed(2)), fastestUs: Number(runs[0]!.toFixed(2)) }));
}

await measure("session JWT, jose, first sight", () => verifyEmbedToken(keys, jwt, clock.now()));
await measure("be_tok_, first sight", () => verifyEmbedToken(keys, beTok, clock.now()));
await measure("session JWT, remembered", () => remembered.verify(jwt));
