/**
 * The dashboard's and the CLI's operations on top-up configurations and dispatches: list, disable, delete. Each
 * change is audited in its transaction; an id the tenant does not have is a 404, whoever else has it.
 */
import type { Sql } from "../../db/client";
import type { PageWindow } from "../../http/pagination";
import { apiError } from "../../lib/errors";
import type { Tenant } from "../../lib/tenant";
import { recordAudit } from "../audit/repo";
import type { OperationContext } from "../operation-context";
import { deleteConfig, disableConfig, listConfigPage, listDispatchPage } from "./repo";
import type { TopupConfigRow } from "./rows";

export const listConfigs = (sql: Sql, tenant: Tenant, page: PageWindow) => listConfigPage(sql, tenant, page);

export const listDispatches = (sql: Sql, tenant: Tenant, page: PageWindow, configId: string | null) => listDispatchPage(sql, tenant, page, configId);

async function change(sql: Sql, c: Omit<OperationContext, "tx">, id: string, action: "disable" | "delete"): Promise<TopupConfigRow> {
  return sql.begin(async (tx) => {
    const row = action === "disable" ? await disableConfig(tx, c.tenant, id, c.now) : await deleteConfig(tx, c.tenant, id);
    if (!row) throw apiError("not_found", `No agent dispatch configuration ${id}`);
    await recordAudit(tx, { ...c.tenant, actor: c.actor, action: `agent_dispatch.${action}`, resourceType: "agent_dispatch", resourceId: id });
    return row;
  });
}

/** Stops the monitor from topping the wallet up until POST /agent/dispatch enables it again. */
export const disableTopup = (sql: Sql, c: Omit<OperationContext, "tx">, id: string) => change(sql, c, id, "disable");

/** Removes the configuration; its dispatches stay listed. */
export const deleteTopup = (sql: Sql, c: Omit<OperationContext, "tx">, id: string) => change(sql, c, id, "delete");
