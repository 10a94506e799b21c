/** The error `code` a refused payment answers with (the session is FAILED with the verdict's reason). */
import type { ErrorCode } from "../../lib/errors";
import type { RefusalReason } from "../../chains/types";

const CODES: Partial<Record<RefusalReason, ErrorCode>> = {
  failed: "transaction_failed",
  wrong_token: "wrong_token",
  wrong_recipient: "wrong_recipient",
  amount_too_low: "amount_too_low",
  memo_mismatch: "memo_mismatch",
  invalid_transaction: "invalid_transaction",
  wrong_payer: "wrong_payer",
};

export const refusalCode = (reason: string): ErrorCode => CODES[reason as RefusalReason] ?? "invalid_transaction";
