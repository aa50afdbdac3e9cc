import type { CreateAgentRequest, PresenceStatus } from '@svc/protocol';
import type { DomainEvents } from '../conversations/domain-events.ts';
import { AppError, invalidClient } from '../http/errors.ts';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../lib/password.ts';
import { hashToken, randomToken } from '../lib/secrets.ts';
import type { AgentRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

export function createAgentService(deps: { store: Store; events: DomainEvents }) {
  const { store, events } = deps;

  return {
    /** Creates an agent; the answer carries its first API token, which is stored only as a hash. */
    async create(request: CreateAgentRequest, role: 'admin' | 'agent' = 'agent'): Promise<{ agent: AgentRecord; token: string }> {
      if (await store.agents.findCredentials(request.email)) {
        throw new AppError('invalid_request', 'email: an agent with this e-mail already exists');
      }
      const token = randomToken();
      const agent = await store.agents.create(
        {
          name: request.name,
          email: request.email,
          passwordHash: await hashPassword(request.password),
          photo: request.photo ?? null,
          role,
        },
        hashToken(token),
      );
      return { agent, token };
    },

    /** Checks the password (in the same time whether or not the e-mail exists) and issues a new token. */
    async login(email: string, password: string): Promise<{ agent: AgentRecord; token: string }> {
      const found = await store.agents.findCredentials(email);
      const ok = await verifyPassword(password, found?.passwordHash ?? DUMMY_PASSWORD_HASH);
      if (!found || !ok || !found.agent.active) throw invalidClient('Wrong e-mail or password');
      const token = randomToken();
      await store.agents.addToken(found.agent.id, hashToken(token));
      return { agent: found.agent, token };
    },

    /** Revokes the token and ends its live connections at once. */
    async logout(tokenHash: string): Promise<void> {
      await store.agents.revokeToken(tokenHash);
      events.emit('agent.token-revoked', { tokenHash });
    },

    async setPresence(agent: AgentRecord, status: PresenceStatus): Promise<AgentRecord> {
      await store.agents.setStatus(agent.id, status);
      const updated = (await store.agents.findById(agent.id))!;
      const channelIds = await store.agents.channelIds(agent.id);
      events.emit('presence', { agent: updated, channelIds });
      for (const channelId of channelIds) {
        events.emit('channel.status', { channelId, status: await store.channels.status(channelId) });
      }
      return updated;
    },
  };
}
export type AgentService = ReturnType<typeof createAgentService>;
