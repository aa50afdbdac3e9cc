import type Router from '@koa/router';
import { chatDepartmentSchema, createDepartmentSchema, updateDepartmentSchema } from '@svc/protocol';
import { z } from 'zod';
import { chatView } from '../conversations/views.ts';
import { currentAgent, requireAdmin, requireAdminOrAgent, requireAgent } from '../http/auth.ts';
import { notFound } from '../http/errors.ts';
import { parseOr400 } from '../http/validate.ts';
import type { Store } from '../store/store.ts';
import { departmentView, type DepartmentService } from './department-service.ts';

const idParam = z.coerce.number().int().positive();

/** Departments in the admin API; admins and agents may read them, and an agent may move a chat it sees to
 * another department. */
export function registerDepartmentRoutes(
  router: Router,
  deps: { store: Store; departments: DepartmentService; adminTokenHash: string },
): void {
  const { store, departments } = deps;
  const admin = requireAdmin(deps.adminTokenHash, store);
  const reader = requireAdminOrAgent(deps.adminTokenHash, store);
  const departmentId = (raw: string | undefined) => {
    const id = idParam.safeParse(raw);
    if (!id.success) throw notFound('No such department');
    return id.data;
  };

  router.post('/api/v1/departments', admin, async (ctx) => {
    const department = await departments.create(parseOr400(createDepartmentSchema, ctx.request.body));
    ctx.status = 201;
    ctx.body = departmentView(department);
  });

  router.get('/api/v1/departments', reader, async (ctx) => {
    ctx.body = { departments: (await store.departments.list()).map(departmentView) };
  });

  router.get('/api/v1/departments/:id', reader, async (ctx) => {
    const department = await store.departments.findById(departmentId(ctx.params.id));
    if (!department) throw notFound('No such department');
    ctx.body = departmentView(department);
  });

  router.patch('/api/v1/departments/:id', admin, async (ctx) => {
    const id = departmentId(ctx.params.id);
    const request = parseOr400(updateDepartmentSchema, ctx.request.body ?? {});
    ctx.body = departmentView(await departments.update(id, request));
  });

  router.delete('/api/v1/departments/:id', admin, async (ctx) => {
    await departments.delete(departmentId(ctx.params.id));
    ctx.status = 204;
  });

  router.put('/api/v1/chats/:id/department', requireAgent(store), async (ctx) => {
    const chatId = idParam.safeParse(ctx.params.id);
    const chat = chatId.success ? await store.chats.findForAgent(chatId.data, currentAgent(ctx).id) : undefined;
    if (!chat) throw notFound('No such chat');
    const { department_id } = parseOr400(chatDepartmentSchema, ctx.request.body);
    ctx.body = { chat: chatView(await departments.setChatDepartment(chat.id, department_id)) };
  });
}
