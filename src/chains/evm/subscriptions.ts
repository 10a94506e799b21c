/** PLACEHOLDER: the evm subscription adapter is being built in a helper's worktree; this file is replaced. */
import { refuseOperation, type SubscriptionAdapter } from "../subscription-types";

const unavailable = async () => refuseOperation("not_configured", "Subscriptions are not available on this network yet");

export const evmSubscriptions: SubscriptionAdapter = {
  readAutopay: unavailable,
  activate: unavailable,
  charge: unavailable,
  revoke: unavailable,
  lookup: unavailable,
};
