/**
 * `credit-pack create | list | archive`: the dashboard's credit pack operations (docs/x402.md#credit-packs) for an
 * operator, through the same service functions as /api/v1/dashboard/credit-packs, audited as the operator.
 */
import { apiError } from "../lib/errors";
import { archiveCreditPack, createCreditPack, listCreditPackPage } from "../modules/catalog/credit-packs/edit";
import { presentCreditPack } from "../modules/catalog/credit-packs/present";
import { OPERATOR } from "../modules/teams/roles";
import { ENVIRONMENT_OPTION, TEAM_OPTION, list, oneOf, tenant } from "./args";
import { command, type Context } from "./command";

const ALL = { beforeSeq: null, fetch: 10_000 }; // the CLI lists without pages: every row, newest first
const deps = (ctx: Context) => ({ sql: ctx.sql, chains: ctx.config.chains, now: () => new Date(ctx.now), fieldPrefix: "" });
const flag = (name: string, value: string | undefined) => (value === undefined ? undefined : oneOf(name, value, ["true", "false"]) === "true");

/** `network:token:amount,…` as the prices the service takes. */
function prices(value: string | undefined) {
  return (list(value) ?? []).map((entry) => {
    const [network, token, amount, ...rest] = entry.split(":");
    if (!network || !token || !amount || rest.length)
      throw apiError("validation_failed", "Validation failed", { prices: "Expected network:token:amount, comma-separated" });
    return { network, token, amount };
  });
}

export const creditPackCommands = [
  command({
    name: "credit-pack create",
    summary: "Create a credit pack sold through x402 on the insufficient-credit 402",
    options: {
      ...TEAM_OPTION,
      key: { value: "<key>", help: "Unique in any case", required: true },
      name: { value: "<name>", help: "Default: the key" },
      credits: { value: "<N>", help: "Credits the pack grants", required: true },
      prices: { value: "<network:token:amount,…>", help: "Token units, e.g. base-sepolia:USDC:1000000", required: true },
      offer: { value: "true|false", help: "The pack a 402 offers (at most one live per environment); default false" },
      enabled: { value: "true|false", help: "Default true" },
      ...ENVIRONMENT_OPTION,
    },
    parse: (a) => ({
      tenant: tenant(a),
      pack: {
        key: a.key!,
        name: a.name,
        credits: a.credits!,
        prices: prices(a.prices),
        offerOnPaymentRequired: flag("offer", a.offer),
        enabled: flag("enabled", a.enabled),
      },
    }),
    run: async (ctx, { tenant, pack }) => presentCreditPack(ctx.config.chains)(await createCreditPack(deps(ctx), tenant, OPERATOR, pack)),
  }),
  command({
    name: "credit-pack list",
    summary: "List credit packs",
    options: { ...TEAM_OPTION, "include-archived": { value: "true|false", help: "Default false" }, ...ENVIRONMENT_OPTION },
    parse: (a) => ({ tenant: tenant(a), archived: flag("include-archived", a["include-archived"]) === true }),
    run: async (ctx, { tenant, archived }) => (await listCreditPackPage(ctx.sql, tenant, ALL, archived)).map(presentCreditPack(ctx.config.chains)),
  }),
  command({
    name: "credit-pack archive",
    summary: "Archive a credit pack (a 402 no longer offers it)",
    options: { ...TEAM_OPTION, id: { value: "<pack id>", help: "cpk_…", required: true }, ...ENVIRONMENT_OPTION },
    parse: (a) => ({ tenant: tenant(a), id: a.id! }),
    run: async (ctx, { tenant, id }) => presentCreditPack(ctx.config.chains)(await archiveCreditPack(deps(ctx), tenant, OPERATOR, id)),
  }),
];
