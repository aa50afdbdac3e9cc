import type { BotProviderRecord } from './records.ts';

export interface BotProviderRow {
  id: number;
  provider_id: string;
  name: string;
  endpoint: string;
  auth_json: string | null;
  created_at: number;
}

export const toProvider = (r: BotProviderRow): BotProviderRecord => ({
  id: r.id,
  providerId: r.provider_id,
  name: r.name,
  endpoint: r.endpoint,
  auth: r.auth_json === null ? null : (JSON.parse(r.auth_json) as BotProviderRecord['auth']),
  createdAt: r.created_at,
});

export interface BotProvidersRepo {
  create(p: Omit<BotProviderRecord, 'id' | 'createdAt'>): Promise<BotProviderRecord>;
  /** Keeps the hash of an access token obtained from the provider until it expires (it survives restarts). */
  rememberToken(providerRowId: number, tokenHash: string, expiresAt: number): Promise<void>;
  holdsToken(providerRowId: number, tokenHash: string): Promise<boolean>;
  findById(id: number): Promise<BotProviderRecord | undefined>;
  findByProviderId(providerId: string): Promise<BotProviderRecord | undefined>;
  list(): Promise<BotProviderRecord[]>;
}
