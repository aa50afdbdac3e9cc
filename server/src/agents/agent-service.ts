import type { CreateAgentRequest, PresenceStatus, UpdateAgentRequest } from '@svc/protocol';
import type { DomainEvents } from '../conversations/domain-events.ts';
import { AppError, invalidClient, invalidRequest, notFound } from '../http/errors.ts';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../lib/password.ts';
import { hashToken, randomToken } from '../lib/secrets.ts';
import type { AgentRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

export function createAgentService(deps: { store: Store; events: DomainEvents }) {
  const { store, events } = deps;

  return {
    /** Creates an agent; the answer carries its first API token, which is stored only as a hash. */
    async create(request: CreateAgentRequest): Promise<{ agent: AgentRecord; token: string }> {
      if (await store.agents.findCredentials(request.email)) {
        throw new AppError('invalid_request', 'email: an agent with this e-mail already exists');
      }
      if (request.channel_ids) await checkChannels(request.channel_ids);
      const token = randomToken();
      const agent = await store.agents.create(
        {
          name: request.name,
          email: request.email,
          passwordHash: await hashPassword(request.password),
          photo: request.photo ?? null,
          role: request.role ?? 'agent',
        },
        hashToken(token),
      );
      if (request.channel_ids?.length) await moveToChannels(agent.id, [...new Set(request.channel_ids)]);
      return { agent, token };
    },

    /**
     * Changes an agent (admin API). Deactivating ends its sessions and sockets at once and takes it offline; an
     * admin acting with its own token may not take away its own admin role or deactivate itself.
     */
    async update(id: number, request: UpdateAgentRequest, actor?: AgentRecord): Promise<AgentRecord> {
      const agent = await store.agents.findById(id);
      if (!agent) throw notFound('No such agent');
      if (actor?.id === id && (request.role === 'agent' || request.active === false))
        throw invalidRequest('An admin cannot take away its own admin role or deactivate itself');
      if (request.email && request.email !== agent.email && (await store.agents.findCredentials(request.email)))
        throw invalidRequest('email: an agent with this e-mail already exists');
      if (request.channel_ids) await checkChannels(request.channel_ids);
      const wasOnline = agent.status === 'online';
      const revoked = await store.agents.update(id, {
        name: request.name,
        email: request.email,
        passwordHash: request.password === undefined ? undefined : await hashPassword(request.password),
        photo: request.photo,
        role: request.role,
        active: request.active,
      });
      for (const tokenHash of revoked) events.emit('agent.token-revoked', { tokenHash });
      if (request.channel_ids) await moveToChannels(id, [...new Set(request.channel_ids)]);
      const updated = (await store.agents.findById(id))!;
      events.emit('agent.updated', { agent: updated });
      if (wasOnline && !updated.active) await announcePresence(updated);
      return updated;
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
      await announcePresence(updated);
      return updated;
    },
  };

  async function announcePresence(agent: AgentRecord) {
    const channelIds = await store.agents.channelIds(agent.id);
    events.emit('presence', { agent, channelIds });
    for (const channelId of channelIds) {
      events.emit('channel.status', { channelId, status: await store.channels.status(channelId) });
    }
  }

  async function checkChannels(ids: number[]) {
    for (const channelId of ids) {
      if (!(await store.channels.findById(channelId))) throw invalidRequest(`channel_ids: no channel ${channelId}`);
    }
  }

  /** Assigns the agent to exactly these channels; the channels it joined or left hear of it, as when an admin
   * changes a channel's agent_ids. */
  async function moveToChannels(agentId: number, channelIds: number[]) {
    const before = await store.agents.channelIds(agentId);
    await store.agents.update(agentId, { channelIds });
    for (const channelId of new Set([...before, ...channelIds])) {
      const added = channelIds.includes(channelId) && !before.includes(channelId) ? [agentId] : [];
      const removed = before.includes(channelId) && !channelIds.includes(channelId) ? [agentId] : [];
      if (!added.length && !removed.length) continue;
      events.emit('channel.agents', { channelId, added, removed });
      events.emit('channel.status', { channelId, status: await store.channels.status(channelId) });
    }
  }
}
export type AgentService = ReturnType<typeof createAgentService>;
