/**
 * Signing secrets: taken from the environment when set, otherwise generated once and kept in
 * `<dataDir>/secrets.json` (mode 0600) so tokens and links stay valid across restarts.
 * Several instances behind one database must share them: set the variables explicitly there.
 */
import { chmod } from "node:fs/promises";
import { randomToken } from "./ids";

interface Secrets {
  tokenSigningSecret: string;
  linkSigningSecret: string;
}

export async function loadOrCreateSecrets(
  dataDir: string,
  fromEnv: { tokenSigningSecret?: string; linkSigningSecret?: string },
): Promise<Secrets> {
  if (fromEnv.tokenSigningSecret && fromEnv.linkSigningSecret) {
    return { tokenSigningSecret: fromEnv.tokenSigningSecret, linkSigningSecret: fromEnv.linkSigningSecret };
  }
  const file = Bun.file(`${dataDir}/secrets.json`);
  let stored: Partial<Secrets> = {};
  if (await file.exists()) stored = (await file.json()) as Partial<Secrets>;
  const secrets: Secrets = {
    tokenSigningSecret: fromEnv.tokenSigningSecret ?? stored.tokenSigningSecret ?? randomToken(48),
    linkSigningSecret: fromEnv.linkSigningSecret ?? stored.linkSigningSecret ?? randomToken(48),
  };
  if (stored.tokenSigningSecret !== secrets.tokenSigningSecret || stored.linkSigningSecret !== secrets.linkSigningSecret) {
    await Bun.write(file, JSON.stringify(secrets, null, 2));
    await chmod(`${dataDir}/secrets.json`, 0o600); // readable by the service's user only
  }
  return secrets;
}
