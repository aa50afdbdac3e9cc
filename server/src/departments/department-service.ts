import type { CreateDepartmentRequest, DepartmentView, UpdateDepartmentRequest } from '@svc/protocol';
import type { DomainEvents } from '../conversations/domain-events.ts';
import { invalidRequest, notFound } from '../http/errors.ts';
import { DepartmentNameTaken, type DepartmentRecord } from '../store/departments.ts';
import type { ChatRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

export function departmentView(d: DepartmentRecord): DepartmentView {
  return { id: d.id, name: d.name, agent_ids: d.agentIds };
}

/**
 * Departments (spec 2.3): their administration, and putting a chat, or a visitor's next chat, in one. A
 * chat's department travels in the agents' chat views and in the server webhooks (spec 6.2).
 */
export function createDepartmentService(deps: { store: Store; events: DomainEvents }) {
  const { store, events } = deps;

  async function checkAgents(ids: number[] | undefined) {
    if (!ids || ids.length === 0) return;
    const existing = new Set(await store.agents.existingIds(ids));
    const missing = ids.filter((id) => !existing.has(id));
    if (missing.length > 0) throw invalidRequest(`agent_ids: no agent with id ${missing.join(', ')}`);
  }

  /** The department, or a 400 naming the unknown id (it comes from a caller, not from a URL). */
  async function checkDepartment(departmentId: number | null) {
    if (departmentId === null) return;
    if (!(await store.departments.findById(departmentId))) throw invalidRequest(`department_id: no department with id ${departmentId}`);
  }

  const nameTaken = (err: unknown) => {
    throw err instanceof DepartmentNameTaken ? invalidRequest(err.message) : err;
  };

  return {
    async create(request: CreateDepartmentRequest): Promise<DepartmentRecord> {
      await checkAgents(request.agent_ids);
      return store.departments.create({ name: request.name, agentIds: [...new Set(request.agent_ids)] }).catch(nameTaken);
    },

    async update(id: number, request: UpdateDepartmentRequest): Promise<DepartmentRecord> {
      await checkAgents(request.agent_ids);
      const agentIds = request.agent_ids && [...new Set(request.agent_ids)];
      const updated = await store.departments.update(id, { name: request.name, agentIds }).catch(nameTaken);
      if (!updated) throw notFound('No such department');
      return updated;
    },

    /** Deletes the department; its chats stay, without a department. */
    async delete(id: number): Promise<void> {
      if (!(await store.departments.delete(id))) throw notFound('No such department');
    },

    /**
     * Puts a chat in a department (null takes it out) and shows the change to agents. An unknown department
     * is a 400 `invalid_request`, an unknown chat a 404.
     * @example await departments.setChatDepartment(chat.id, 3)
     */
    async setChatDepartment(chatId: number, departmentId: number | null): Promise<ChatRecord> {
      await checkDepartment(departmentId);
      if (!(await store.chats.setDepartment(chatId, departmentId))) throw notFound('No such chat');
      const chat = (await store.chats.findById(chatId))!;
      events.emit('chat.updated', { chat });
      return chat;
    },

    /**
     * The visitor's next chat opens in this department (null: in none); the one after it does not. The widget's
     * proactive invitation (spec 4.4 showProactiveInvitation) uses this. A chat the visitor already has keeps
     * its department: use setChatDepartment for it.
     * @example await departments.setVisitorDepartment(visitor.id, 3)
     */
    async setVisitorDepartment(clientId: number, departmentId: number | null): Promise<void> {
      await checkDepartment(departmentId);
      if (!(await store.visitors.setPendingDepartment(clientId, departmentId))) throw notFound('No such visitor');
    },
  };
}
export type DepartmentService = ReturnType<typeof createDepartmentService>;
