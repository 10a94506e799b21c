/**
 * Session JWTs name their signing key (`kid`); TOKEN_SIGNING_SECRET_PREVIOUS keeps tokens signed before a
 * rotation valid until it is removed. Forged headers (alg none, HS512, unknown or missing kid) and claims
 * (issuer, audience, not-before, expiry) are refused.
 */
import { describe, expect, test } from "bun:test";
import { createPeerInstance, createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";

const OLD_SECRET = "rotation-old-secret-0123456789abcdefghijkl";
const NEW_SECRET = "rotation-new-secret-0123456789abcdefghijkl";

// The instance under test is mid-rotation; its peers on the same database are the same deployment
// before the rotation (signing with the old secret) and after it (the previous secret removed).
const t = await createTestApp({ TOKEN_SIGNING_SECRET: NEW_SECRET, TOKEN_SIGNING_SECRET_PREVIOUS: OLD_SECRET });
const before = await createPeerInstance(t, { tokenSigningSecret: OLD_SECRET, previousTokenSigningSecret: undefined });
const after = await createPeerInstance(t, { previousTokenSigningSecret: undefined });
const team = await createTeamFixture(t);
const company = { id: "rotation-co" };

type Call = typeof t.call;
const mintJwt = async (call: Call) =>
  (await call("POST", "/access-tokens", { token: team.keys.secret, body: { company, user: { email: "u@rotation.test" } } })).body.token as string;
const mintEmbed = async (call: Call) => (await call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company } })).body.token as string;
const answer = async (call: Call, token: string) => {
  const res = await call("GET", `/entitlements?company=${company.id}`, { token });
  return { status: res.status, code: res.body.code };
};
const OK = { status: 200, code: undefined };
const INVALID = { status: 401, code: "invalid_credentials" };

// Written out here rather than taken from src/, so the tests check the documented rule, not the code against itself.
const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");
const keyId = async (secret: string) => b64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret))).slice(0, 8));
const decode = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString());

function forge(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  secret: string,
  hash: "sha256" | "sha512" | null = "sha256",
): string {
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  const signature = hash ? b64url(new Uint8Array(new Bun.CryptoHasher(hash, secret).update(input).digest())) : "";
  return `${input}.${signature}`;
}

describe("rotating TOKEN_SIGNING_SECRET", () => {
  test("tokens minted before the rotation work during it and stop once the previous secret is removed", async () => {
    for (const mint of [mintJwt, mintEmbed]) {
      const token = await mint(before.call);
      expect(await answer(before.call, token)).toEqual(OK);
      expect(await answer(t.call, token)).toEqual(OK);
      expect(await answer(after.call, token)).toEqual(INVALID);
    }
  });

  test("new tokens are signed with the new secret and name its key id", async () => {
    const jwt = await mintJwt(t.call);
    expect(decode(jwt.split(".")[0]!)).toEqual({ alg: "HS256", typ: "JWT", kid: await keyId(NEW_SECRET) });
    for (const token of [jwt, await mintEmbed(t.call)]) {
      expect(await answer(after.call, token)).toEqual(OK);
      expect(await answer(before.call, token)).toEqual(INVALID);
    }
  });
});

describe("forged session JWTs", () => {
  const genuine = async () => decode((await mintJwt(t.call)).split(".")[1]!);
  const header = async (secret = NEW_SECRET) => ({ alg: "HS256", typ: "JWT", kid: await keyId(secret) });

  test("200 for a token forged exactly as the server signs (the control for every refusal below)", async () => {
    expect(await answer(t.call, forge(await header(), await genuine(), NEW_SECRET))).toEqual(OK);
    expect(await answer(t.call, forge(await header(OLD_SECRET), await genuine(), OLD_SECRET))).toEqual(OK);
  });

  test("401 for alg none, with or without a key id", async () => {
    const claims = await genuine();
    expect(await answer(t.call, forge({ ...(await header()), alg: "none" }, claims, NEW_SECRET, null))).toEqual(INVALID);
    expect(await answer(t.call, forge({ alg: "none", typ: "JWT" }, claims, NEW_SECRET, null))).toEqual(INVALID);
  });

  test("401 for HS512 keyed with the real secret", async () => {
    expect(await answer(t.call, forge({ ...(await header()), alg: "HS512" }, await genuine(), NEW_SECRET, "sha512"))).toEqual(INVALID);
  });

  test("401 for an unknown or missing key id, even when signed with the real secret", async () => {
    const claims = await genuine();
    expect(await answer(t.call, forge({ ...(await header()), kid: "AAAAAAAAAAA" }, claims, NEW_SECRET))).toEqual(INVALID);
    expect(await answer(t.call, forge({ alg: "HS256", typ: "JWT" }, claims, NEW_SECRET))).toEqual(INVALID);
    // The key id chooses the key: the previous secret's id over the current secret's signature fails.
    expect(await answer(t.call, forge(await header(OLD_SECRET), claims, NEW_SECRET))).toEqual(INVALID);
  });

  test("401 for another issuer or audience, or a token not valid yet", async () => {
    const claims = await genuine();
    const now = Math.floor(t.clock.now() / 1000);
    for (const changed of [{ iss: "someone-else" }, { aud: "api" }, { nbf: now + 600 }]) {
      expect({ changed, ...(await answer(t.call, forge(await header(), { ...claims, ...changed }, NEW_SECRET))) }).toEqual({ changed, ...INVALID });
    }
  });

  test("401 expired_credentials once past exp, also for a token verified (and remembered) while valid", async () => {
    const token = await mintJwt(t.call);
    expect(await answer(t.call, token)).toEqual(OK);
    t.clock.advance(3_600_000);
    try {
      expect(await answer(t.call, token)).toEqual({ status: 401, code: "expired_credentials" });
    } finally {
      t.clock.advance(-3_600_000);
    }
  });
});
