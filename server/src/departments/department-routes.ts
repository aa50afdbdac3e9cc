import type Router from '@koa/router';
import { createDepartmentSchema, updateDepartmentSchema } from '@svc/protocol';
import { z } from 'zod';
import { requireAdmin, requireAdminOrAgent } from '../http/auth.ts';
import { notFound } from '../http/errors.ts';
import { parseOr400 } from '../http/validate.ts';
import type { Store } from '../store/store.ts';
import { departmentView, type DepartmentService } from './department-service.ts';

const idParam = z.coerce.number().int().positive();

/** Departments in the admin API; admins and agents may read them (agents to show and pick one). */
export function registerDepartmentRoutes(
  router: Router,
  deps: { store: Store; departments: DepartmentService; adminTokenHash: string },
): void {
  const { store, departments } = deps;
  const admin = requireAdmin(deps.adminTokenHash);
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
}
