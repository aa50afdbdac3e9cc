import type { TransferRequest } from '@svc/protocol';
import type { ConversationService } from '../conversations/conversation-service.ts';
import type { DomainEvents } from '../conversations/domain-events.ts';
import { invalidRequest } from '../http/errors.ts';
import type { TransferTarget } from '../store/notes.ts';
import type { AgentRecord, ChatRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

/**
 * Transfer (issue 17): an agent hands a chat to a colleague or back to a department's queue. The chat's
 * history keeps who passed it to whom as an internal system message (agents only), the optional note as a
 * private note, and the receiving agents are told live (`chat.transferred`).
 */
export function createTransferService(deps: { store: Store; events: DomainEvents; conversations: ConversationService }) {
  const { store, events, conversations } = deps;

  async function targetAgent(chat: ChatRecord, agentId: number) {
    const target = await store.agents.findById(agentId);
    if (!target || !target.active) throw invalidRequest('agent_id: no such agent');
    if (!(await store.agents.channelIds(target.id)).includes(chat.channelId))
      throw invalidRequest(`agent_id: ${target.name} has no access to this chat's channel`);
    return target;
  }

  async function targetDepartment(departmentId: number) {
    const department = await store.departments.findById(departmentId);
    if (!department) throw invalidRequest('department_id: no such department');
    return department;
  }

  return {
    /** Who the caller may hand the chat to: the channel's other active agents (with their presence) and every department. */
    async targets(agent: AgentRecord, chatId: number) {
      const chat = await conversations.chatForAgent(agent, chatId);
      const channel = await store.channels.findById(chat.channelId);
      const agents = await Promise.all((channel?.agentIds ?? []).filter((id) => id !== agent.id).map((id) => store.agents.findById(id)));
      return {
        agents: agents
          .filter((a): a is AgentRecord => a !== undefined && a.active)
          .map((a) => ({ id: a.id, name: a.name, status: a.status })),
        departments: (await store.departments.list()).map((d) => ({ id: d.id, name: d.name })),
      };
    },

    async transfer(agent: AgentRecord, chatId: number, request: TransferRequest): Promise<ChatRecord> {
      const chat = await conversations.chatForAgent(agent, chatId);
      if (chat.state === 'closed') throw invalidRequest('The chat is closed');
      if (chat.state === 'bot') throw invalidRequest('A bot holds this chat: take it first, then transfer it');
      const note = request.note ?? null;
      let to: TransferTarget;
      let record: string;
      let told: { agent: AgentRecord } | { department: { id: number; name: string; agentIds: number[] } };
      if (request.agent_id !== undefined) {
        const target = await targetAgent(chat, request.agent_id);
        if (target.id === chat.assignedAgentId) throw invalidRequest(`agent_id: the chat is already ${target.name}'s`);
        to = { agentId: target.id };
        record = `${agent.name} transferred the chat to ${target.name}`;
        told = { agent: target };
      } else {
        const department = await targetDepartment(request.department_id!);
        to = { departmentId: department.id };
        record = `${agent.name} transferred the chat to the ${department.name} department`;
        told = { department: { id: department.id, name: department.name, agentIds: department.agentIds } };
      }
      const messages = await store.notes.transfer({ chatId: chat.id, to, byAgentId: agent.id, record, note });
      if (!messages) throw invalidRequest('The chat is closed');
      const moved = (await store.chats.findById(chat.id))!;
      for (const message of messages) events.emit('note.created', { chat: moved, message });
      events.emit('chat.updated', { chat: moved });
      events.emit('chat.transferred', { chat: moved, from: agent, to: told, note });
      return moved;
    },
  };
}
export type TransferService = ReturnType<typeof createTransferService>;
