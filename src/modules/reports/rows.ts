/** Rows of the report queries (sql/queries/report_*): int8 columns arrive as bigint. */
export interface UsageDayRow {
  feature_id: string;
  feature_key: string;
  name: string;
  /** YYYY-MM-DD, UTC */
  day: string;
  quantity: bigint;
}

export interface RevenueMonthRow {
  /** YYYY-MM, UTC */
  month: string;
  currency: string;
  paid: bigint;
  invoices_paid: bigint;
  refunded: bigint;
  credited: bigint;
}

export interface RenewalMonthRow {
  month: string;
  renewals_succeeded: bigint;
  renewals_failed: bigint;
  failed_charges: bigint;
  dunning_retries: bigint;
  recovered: bigint;
  canceled_unpaid: bigint;
}
