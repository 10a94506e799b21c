/**
 * A plan change's preview, for the dashboard, the embed token and the CLI alike: the change quoted at `now`
 * (quote.ts), recorded as a quote the change can be given (quotes.ts), in the preview's wire shape.
 */
import type { Db } from "../../../db/queries";
import type { Tenant } from "../../../lib/tenant";
import { quotePlanChange, type PlanChangeRequest } from "./quote";
import { presentPreview } from "./schemas";
import { recordQuote } from "./quotes";

export async function previewPlanChange(
  db: Db,
  tenant: Tenant,
  { companyId, request, now }: { companyId: string; request: PlanChangeRequest; now: Date },
) {
  const quote = await quotePlanChange(db, tenant, { companyId, request, now });
  return presentPreview(quote, await recordQuote(db, tenant, { companyId, request, quote }));
}
