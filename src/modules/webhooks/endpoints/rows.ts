/** Database row type of a webhook endpoint; its secrets are stored sealed. */
export interface EndpointRow {
  id: string;
  url: string;
  description: string | null;
  event_types: string[];
  secret_sealed: Sealed;
  previous_secret_sealed: Sealed | null;
  previous_expires_at: Date | null;
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  created_at: Date;
  updated_at: Date;
  seq: bigint;
}

export type Sealed = Uint8Array<ArrayBuffer>;
