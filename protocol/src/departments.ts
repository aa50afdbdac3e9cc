import { z } from 'zod';

/** spec 2.3 department, as chats and server webhooks carry it. */
export const departmentRefSchema = z.object({ id: z.number().int(), name: z.string() });
export type DepartmentRef = z.infer<typeof departmentRefSchema>;

const departmentName = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const agentIds = z.array(z.number().int().positive()).max(1000);

// ---- admin API: departments ----
export const createDepartmentSchema = z.object({ name: departmentName, agent_ids: agentIds.default([]) }).strict();
export type CreateDepartmentRequest = z.infer<typeof createDepartmentSchema>;

/** PATCH body: a new name, a new list of agents (replacing the old one), or both. */
export const updateDepartmentSchema = z
  .object({ name: departmentName, agent_ids: agentIds })
  .partial()
  .strict()
  .refine((r) => r.name !== undefined || r.agent_ids !== undefined, 'give name, agent_ids or both');
export type UpdateDepartmentRequest = z.infer<typeof updateDepartmentSchema>;

// ---- agent API: a chat's department ----
/** `PUT /api/v1/chats/:id/department`: moves the chat to a department, or out of its department with null. */
export const chatDepartmentSchema = z.object({ department_id: z.number().int().positive().nullable() }).strict();
export type ChatDepartmentRequest = z.infer<typeof chatDepartmentSchema>;

/** A department as the admin and agent APIs answer it: the agents who belong to it, by id. */
export const departmentViewSchema = departmentRefSchema.extend({ agent_ids: z.array(z.number().int()) });
export type DepartmentView = z.infer<typeof departmentViewSchema>;
