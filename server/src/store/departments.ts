/** spec 2.3 department, with the agents who belong to it. */
export interface DepartmentRecord {
  id: number;
  name: string;
  agentIds: number[];
  createdAt: number;
}

export interface DepartmentRow {
  id: number;
  name: string;
  agent_ids_json: string;
  created_at: number;
}

export const toDepartment = (r: DepartmentRow): DepartmentRecord => ({
  id: r.id,
  name: r.name,
  agentIds: JSON.parse(r.agent_ids_json) as number[],
  createdAt: r.created_at,
});

/** Another department already has this name (compared without regard to case). */
export class DepartmentNameTaken extends Error {
  constructor(name: string) {
    super(`name: a department named "${name}" already exists`);
  }
}

export interface DepartmentsRepo {
  /** Throws DepartmentNameTaken when the name is in use. */
  create(input: { name: string; agentIds: number[] }): Promise<DepartmentRecord>;
  /** Undefined when there is no such department; throws DepartmentNameTaken when the new name is in use. */
  update(id: number, patch: { name?: string; agentIds?: number[] }): Promise<DepartmentRecord | undefined>;
  /** False when there was no such department. Its chats and visitors keep no reference to it. */
  delete(id: number): Promise<boolean>;
  findById(id: number): Promise<DepartmentRecord | undefined>;
  list(): Promise<DepartmentRecord[]>;
}
