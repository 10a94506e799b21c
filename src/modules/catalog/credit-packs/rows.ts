/** Database row type of a credit pack (credits a bigint; prices as stored: the token by symbol, the amount in token units). */

/** One accepted price: the registry's network id, the token's symbol, the amount in the token's smallest units. */
export interface StoredPackPrice {
  network: string;
  token: string;
  amount: string;
}

export interface CreditPackRow {
  id: string;
  key: string;
  name: string;
  credits: bigint | string;
  prices: StoredPackPrice[];
  offer_on_payment_required: boolean;
  enabled: boolean;
  archived_at: Date | null;
  created_at: Date;
  seq: bigint;
}
