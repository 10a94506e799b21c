/** What only the catalog's pages share: their read-only refusal, and on-chain plan ids as a form types them. */
/** The refusal of a confirmation page to a member whose role may not do what it confirms (the API would refuse it too). */
export const READ_ONLY = "Your role lets you read the catalog, not change it.";

/**
 * On-chain plan ids as typed ("sepolia=7, base=8"), as the API takes them; a piece without "=" goes as a network
 * with no id, for the API to refuse beside the field.
 */
export function onchainIds(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const piece of (text ?? "").split(/[,\n]/)) {
    if (!piece.trim()) continue;
    const [network = "", ...rest] = piece.split("=");
    out[network.trim()] = rest.join("=").trim();
  }
  return out;
}

/** The same ids as the form shows them. */
export const onchainText = (ids: Record<string, string>): string =>
  Object.entries(ids)
    .map(([network, id]) => `${network}=${id}`)
    .join(", ");
