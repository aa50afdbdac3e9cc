import type { PresenceStatus } from '@svc/protocol';
import type { AgentRecord } from './records.ts';

export interface AgentRow {
  id: number;
  name: string;
  email: string;
  photo: string | null;
  status: PresenceStatus;
  role: 'admin' | 'agent';
  active: number;
  created_at: number;
}

export const toAgent = (r: AgentRow): AgentRecord => ({
  id: r.id,
  name: r.name,
  email: r.email,
  photo: r.photo,
  status: r.status,
  role: r.role,
  active: r.active === 1,
  createdAt: r.created_at,
});

export const agentColumns = 'a.id, a.name, a.email, a.photo, a.status, a.role, a.active, a.created_at';

/** The columns a patch changes, with their stored values (both dialects build their UPDATE from these). */
export function agentPatchColumns(patch: AgentPatch): [string, unknown][] {
  const columns: Record<string, unknown> = {
    name: patch.name,
    email: patch.email,
    password_hash: patch.passwordHash,
    photo: patch.photo,
    role: patch.role,
    active: patch.active === undefined ? undefined : patch.active ? 1 : 0,
    // A deactivated agent is offline at once.
    status: patch.active === false ? 'offline' : undefined,
  };
  return Object.entries(columns).filter(([, v]) => v !== undefined);
}

export interface AgentPatch {
  name?: string;
  email?: string;
  passwordHash?: string;
  photo?: string | null;
  role?: 'admin' | 'agent';
  active?: boolean;
  channelIds?: number[];
}

export interface AgentsRepo {
  /** Changes the agent in one unit of work; answers the hashes of the tokens it revoked. */
  update(id: number, patch: AgentPatch): Promise<string[]>;
  /** Creates the agent and its first API token in one unit of work. */
  create(
    input: { name: string; email: string; passwordHash: string; photo: string | null; role: 'admin' | 'agent' },
    tokenHash: string,
  ): Promise<AgentRecord>;
  addToken(agentId: number, tokenHash: string): Promise<void>;
  findById(id: number): Promise<AgentRecord | undefined>;
  list(): Promise<AgentRecord[]>;
  findCredentials(email: string): Promise<{ agent: AgentRecord; passwordHash: string } | undefined>;
  findByTokenHash(tokenHash: string): Promise<AgentRecord | undefined>;
  /** The token stops working at once. */
  revokeToken(tokenHash: string): Promise<void>;
  setStatus(id: number, status: PresenceStatus): Promise<void>;
  /** The ids among `ids` that name existing agents. */
  existingIds(ids: number[]): Promise<number[]>;
  /** Live channels the agent is assigned to. */
  channelIds(agentId: number): Promise<number[]>;
}
