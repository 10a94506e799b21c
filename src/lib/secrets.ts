/**
 * Signing secrets: taken from the environment when set, otherwise generated once and kept in
 * `<dataDir>/secrets.json` (mode 0600) so tokens and links stay valid across restarts.
 * Several instances behind one database must share them: set the variables explicitly there.
 */
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { randomToken } from "./ids";

interface Secrets {
  tokenSigningSecret: string;
  linkSigningSecret: string;
}

export async function loadOrCreateSecrets(dataDir: string, fromEnv: { tokenSigningSecret?: string; linkSigningSecret?: string }): Promise<Secrets> {
  if (fromEnv.tokenSigningSecret && fromEnv.linkSigningSecret) {
    return { tokenSigningSecret: fromEnv.tokenSigningSecret, linkSigningSecret: fromEnv.linkSigningSecret };
  }
  const path = `${dataDir}/secrets.json`;
  const file = Bun.file(path);
  let stored: Partial<Secrets> = {};
  if (await file.exists()) {
    await chmod(path, 0o600); // readable by the service's user only, even if loosened by hand
    stored = (await file.json()) as Partial<Secrets>;
  }
  const secrets: Secrets = {
    tokenSigningSecret: fromEnv.tokenSigningSecret ?? stored.tokenSigningSecret ?? randomToken(48),
    linkSigningSecret: fromEnv.linkSigningSecret ?? stored.linkSigningSecret ?? randomToken(48),
  };
  if (stored.tokenSigningSecret !== secrets.tokenSigningSecret || stored.linkSigningSecret !== secrets.linkSigningSecret) {
    await mkdir(dataDir, { recursive: true });
    // Created 0600 from the first byte (Bun.write has no mode option); an existing file was tightened above.
    await writeFile(path, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return secrets;
}
