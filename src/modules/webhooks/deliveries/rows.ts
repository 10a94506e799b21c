/** Database row types of webhook deliveries, their attempts and the notifications of the log. */
export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  message_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  first_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
  updated_at: Date;
  seq: bigint;
}

export interface AttemptRow {
  attempt: number;
  claimed_at: Date;
  finished_at: Date | null;
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
  response_excerpt: string | null;
}

export interface NotificationRow {
  id: string;
  kind: string;
  resource_type: string;
  resource_id: string;
  message: string;
  details: Record<string, unknown>;
  created_at: Date;
  seq: bigint;
}

export type DeliveryStatus = "pending" | "delivered" | "failed" | "skipped";

export interface MessageRow {
  id: string;
  event_type: string;
  body: string;
  created_at: Date;
}
