import { z } from 'zod';
import { notFound } from '../http/errors.ts';

// zod 4's int() takes safe integers only: PostgreSQL refuses a bigint past 2^63, where SQLite would find nothing.
const chatIdParam = z.coerce.number().int().positive();

/** The chat id a route's `:id` names, or a 404 that says nothing more (whose chat it is, the service decides). */
export function chatIdFromParam(raw: string | undefined): number {
  const id = chatIdParam.safeParse(raw);
  if (!id.success) throw notFound('No such chat');
  return id.data;
}
