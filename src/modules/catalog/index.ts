/**
 * The catalog: plans and add-ons with their prices (plans/), coupons (coupons/), credit packs sold through x402 (credit-packs/), features (features/) and
 * the entitlements plans grant (entitlements/). One Elysia plugin, mounted once by src/app.ts.
 */
import { Elysia } from "elysia";
import type { RouteDeps } from "./write";
import { planRoutes } from "./plans/routes";
import { couponRoutes } from "./coupons/routes";
import { featureRoutes } from "./features/routes";
import { creditPackRoutes } from "./credit-packs/routes";

export function catalogRoutes(deps: RouteDeps) {
  return new Elysia().use(featureRoutes(deps)).use(planRoutes(deps)).use(couponRoutes(deps)).use(creditPackRoutes(deps));
}
