/**
 * Both sides of one company's subscription on the anvil bed, for race and reconciliation tests: what the database
 * recorded (subscription, invoices with their payments, mandate, pending and finished chain operations) and what
 * the chain did (the contract's Subscribed and Charged events for the payer, its token balance).
 */
import type { Abi, Address } from "viem";
import { SUBSCRIPTIONS_ABI } from "../../src/chains/evm/subscription-contract";
import type { SubscriptionBed } from "./chains/anvil-subscriptions";
import type { TestApp } from "./app";

export function subscriptionState(t: TestApp, bed: SubscriptionBed, teamId: string) {
  const sql = t.db.sql;
  const subscriptions = async (companyExternalId: string) => [
    ...(await sql`
      select s.* from subscriptions s join companies c on c.id = s.company_id
      where s.team_id = ${teamId} and c.external_id = ${companyExternalId} order by s.created_at`),
  ];
  const subscription = async (companyExternalId: string) => (await subscriptions(companyExternalId)).at(-1)!;
  const invoices = async (subscriptionId: string) => [
    ...(await sql`
      select i.id, i.status, i.total, i.amount_paid, i.source_id,
             coalesce((select array_agg(p.tx_hash order by p.created_at) from payments p where p.invoice_id = i.id), '{}') as tx_hashes
      from invoices i
      where i.team_id = ${teamId} and i.source = 'subscription' and i.source_id like ${`${subscriptionId}:%`}
      order by i.created_at`),
  ];
  const mandate = async (subscriptionId: string) => (await sql`select * from mandates where subscription_id = ${subscriptionId}`)[0];
  const charges = async (subscriptionId: string) => [
    ...(await sql`select kind, status, tx_hash, amount from subscription_charges where subscription_id = ${subscriptionId} order by created_at`),
  ];
  const companyPlan = async (companyExternalId: string) =>
    (await sql`select active_plan_id from companies where team_id = ${teamId} and external_id = ${companyExternalId}`)[0]?.active_plan_id ?? null;

  /** The contract's events of one kind, oldest first. */
  const events = async (eventName: "Subscribed" | "Charged") =>
    (await bed.anvil.client.getContractEvents({ address: bed.contract, abi: SUBSCRIPTIONS_ABI as Abi, eventName, fromBlock: 0n })).map((log) => ({
      txHash: log.transactionHash,
      args: (log as unknown as { args: Record<string, unknown> }).args,
    }));
  /** The payer's mints and pulls on chain: each Subscribed event is one mint and the first pull, each Charged one pull. */
  async function chainOf(payer: Address) {
    const mints = (await events("Subscribed")).filter((e) => e.args.payer === payer);
    const tokenIds = new Set(mints.map((m) => String(m.args.tokenId)));
    const pulls = (await events("Charged")).filter((e) => tokenIds.has(String(e.args.tokenId)));
    const authorizations = await Promise.all([...tokenIds].map((id) => bed.authorization(BigInt(id))));
    return {
      mints,
      pulls,
      tokens: await bed.read<bigint>("balanceOf", [payer]),
      balance: await bed.balanceOf(payer),
      /** [periodAllowance, cap, spent] of the payer's subscriptions' authorizations (the first's limits; spent summed over all) */
      authorization: [
        authorizations[0]?.periodAllowance ?? 0n,
        authorizations[0]?.cap ?? 0n,
        authorizations.reduce((sum, a) => sum + a.spent, 0n),
      ] as const,
    };
  }

  return { subscriptions, subscription, invoices, mandate, charges, companyPlan, chainOf };
}
