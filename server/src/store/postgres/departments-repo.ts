import { DepartmentNameTaken, toDepartment, type DepartmentRow, type DepartmentsRepo } from '../departments.ts';
import { isUniqueViolation, type PgDb, type PgSql } from './pg-db.ts';

const select = `SELECT d.id, d.name, d.created_at,
    COALESCE((SELECT json_agg(agent_id ORDER BY agent_id) FROM department_agents WHERE department_id = d.id), '[]')::text AS agent_ids_json
  FROM departments d`;

/** The department's agent list replaced whole; the caller holds the department's row lock. */
async function replaceAgents(sql: PgSql, id: number, agentIds: number[]) {
  await sql.run('DELETE FROM department_agents WHERE department_id = $1', [id]);
  if (agentIds.length === 0) return;
  await sql.run(
    `INSERT INTO department_agents (department_id, agent_id) SELECT $1, agent_id FROM unnest($2::bigint[]) AS agent_id
     ON CONFLICT DO NOTHING`,
    [id, agentIds],
  );
}

const byId = async (sql: PgSql, id: number) => {
  const row = await sql.one<DepartmentRow>(`${select} WHERE d.id = $1`, [id]);
  return row && toDepartment(row);
};

/**
 * Departments over PostgreSQL. The CITEXT unique name decides between two nodes creating or renaming to the
 * same name at once: the second waits for the first to commit, then fails with a unique violation, which is
 * answered as DepartmentNameTaken, as SQLite's repository does.
 */
export function createPgDepartmentsRepo(db: PgDb): DepartmentsRepo {
  return {
    async create(input) {
      try {
        return await db.tx(async (sql) => {
          const id = (await sql.value<number>('INSERT INTO departments (name, created_at) VALUES ($1, $2) RETURNING id', [
            input.name,
            Date.now(),
          ]))!;
          await replaceAgents(sql, id, input.agentIds);
          return (await byId(sql, id))!;
        });
      } catch (err) {
        throw isUniqueViolation(err) ? new DepartmentNameTaken(input.name) : err;
      }
    },
    async update(id, patch) {
      try {
        return await db.tx(async (sql) => {
          // The lock queues a concurrent update or delete of the same department behind this one.
          if (!(await sql.value('SELECT id FROM departments WHERE id = $1 FOR UPDATE', [id]))) return undefined;
          if (patch.name !== undefined) await sql.run('UPDATE departments SET name = $1 WHERE id = $2', [patch.name, id]);
          if (patch.agentIds !== undefined) await replaceAgents(sql, id, patch.agentIds);
          return (await byId(sql, id))!;
        });
      } catch (err) {
        throw isUniqueViolation(err) ? new DepartmentNameTaken(patch.name ?? '') : err;
      }
    },
    async delete(id) {
      return (await db.run('DELETE FROM departments WHERE id = $1', [id])) === 1;
    },
    async findById(id) {
      return byId(db, id);
    },
    async list() {
      // SQLite's NOCASE folds ASCII letters only and then compares bytes: lower() under the "C" collation does the same.
      return (await db.all<DepartmentRow>(`${select} ORDER BY lower(d.name::text COLLATE "C"), d.id`)).map(toDepartment);
    },
  };
}
