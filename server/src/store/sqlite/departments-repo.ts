import type { Db } from './db.ts';
import { DepartmentNameTaken, toDepartment, type DepartmentRecord, type DepartmentRow, type DepartmentsRepo } from '../departments.ts';

const select = `SELECT d.id, d.name, d.created_at,
    (SELECT json_group_array(agent_id) FROM (SELECT agent_id FROM department_agents WHERE department_id = d.id ORDER BY agent_id)) AS agent_ids_json
  FROM departments d`;

const isUniqueViolation = (err: unknown) => (err as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';

/** Departments and their agents. Names are unique regardless of case; deleting one detaches its chats. */
export function createDepartmentsRepo(db: Db): DepartmentsRepo {
  const q = {
    insert: db.prepare<[string, number]>('INSERT INTO departments (name, created_at) VALUES (?, ?)'),
    rename: db.prepare<[string, number]>('UPDATE departments SET name = ? WHERE id = ?'),
    remove: db.prepare<[number]>('DELETE FROM departments WHERE id = ?'),
    byId: db.prepare<[number], DepartmentRow>(`${select} WHERE d.id = ?`),
    all: db.prepare<[], DepartmentRow>(`${select} ORDER BY d.name COLLATE NOCASE, d.id`),
    clearAgents: db.prepare<[number]>('DELETE FROM department_agents WHERE department_id = ?'),
    addAgent: db.prepare<[number, number]>('INSERT OR IGNORE INTO department_agents (department_id, agent_id) VALUES (?, ?)'),
  };

  const setAgents = (id: number, agentIds: number[]) => {
    q.clearAgents.run(id);
    for (const agentId of agentIds) q.addAgent.run(id, agentId);
  };

  const create = db.transaction((name: string, agentIds: number[]) => {
    const id = Number(q.insert.run(name, Date.now()).lastInsertRowid);
    setAgents(id, agentIds);
    return toDepartment(q.byId.get(id)!);
  });

  const update = db.transaction((id: number, patch: { name?: string; agentIds?: number[] }) => {
    if (!q.byId.get(id)) return undefined;
    if (patch.name !== undefined) q.rename.run(patch.name, id);
    if (patch.agentIds !== undefined) setAgents(id, patch.agentIds);
    return toDepartment(q.byId.get(id)!);
  });

  return {
    async create(input: { name: string; agentIds: number[] }): Promise<DepartmentRecord> {
      try {
        return create(input.name, input.agentIds);
      } catch (err) {
        throw isUniqueViolation(err) ? new DepartmentNameTaken(input.name) : err;
      }
    },
    async update(id: number, patch: { name?: string; agentIds?: number[] }): Promise<DepartmentRecord | undefined> {
      try {
        return update(id, patch);
      } catch (err) {
        throw isUniqueViolation(err) ? new DepartmentNameTaken(patch.name ?? '') : err;
      }
    },
    async delete(id: number): Promise<boolean> {
      return q.remove.run(id).changes === 1;
    },
    async findById(id: number): Promise<DepartmentRecord | undefined> {
      const row = q.byId.get(id);
      return row && toDepartment(row);
    },
    async list(): Promise<DepartmentRecord[]> {
      return q.all.all().map(toDepartment);
    },
  };
}
