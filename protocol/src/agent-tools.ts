import { z } from 'zod';
import { AGENT_TEXT_MAX, presenceStatuses, type ChatView } from './agent-api.ts';
import { codePointLength } from './text.ts';

/** The agents' daily tools (rest-api.md "Agents' daily tools"): notes, transfer. */

const noteText = z
  .string()
  .refine((t) => t.trim().length > 0, 'must not be empty')
  .refine((t) => codePointLength(t) <= AGENT_TEXT_MAX, `must be at most ${AGENT_TEXT_MAX} characters`);

/** `POST /api/v1/chats/:id/notes` */
export const noteSchema = z.object({ text: noteText }).strict();

/** `POST /api/v1/chats/:id/transfer`: to one agent or to a department's queue, never both. */
export const transferSchema = z
  .object({
    agent_id: z.number().int().positive().optional(),
    department_id: z.number().int().positive().optional(),
    note: noteText.optional(),
  })
  .strict()
  .refine((t) => (t.agent_id === undefined) !== (t.department_id === undefined), {
    message: 'give either agent_id or department_id',
    path: ['agent_id'],
  });
export type TransferRequest = z.infer<typeof transferSchema>;

/** `GET /api/v1/chats/:id/transfer-targets`: the channel's other active agents and every department. */
export const transferTargetsViewSchema = z.object({
  agents: z.array(z.object({ id: z.number().int(), name: z.string(), status: z.enum(presenceStatuses) })),
  departments: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type TransferTargetsView = z.infer<typeof transferTargetsViewSchema>;

/** A saved reply's shortcut: what the agent types after `/`, one word (letters, digits, `-`, `_`). */
const shortcut = z
  .string()
  .regex(/^[\p{L}\p{N}_-]+$/u, 'must be one word: letters, digits, - or _ (no spaces)')
  .max(40, 'must be at most 40 characters');

/** `POST /api/v1/canned-replies` */
export const cannedReplyCreateSchema = z
  .object({ shortcut, text: noteText, scope: z.enum(['team', 'personal']).default('personal') })
  .strict();
/** `PATCH /api/v1/canned-replies/:id` */
export const cannedReplyPatchSchema = z.object({ shortcut: shortcut.optional(), text: noteText.optional() }).strict();

export const cannedReplyViewSchema = z.object({
  id: z.number().int(),
  shortcut: z.string(),
  text: z.string(),
  scope: z.enum(['team', 'personal']),
  agent_id: z.number().int().nullable().describe('The owner of a personal reply; null for a team reply.'),
});
export type CannedReplyView = z.infer<typeof cannedReplyViewSchema>;

/** `POST /api/v1/chats/:id/read` */
export const readSchema = z.object({ message_id: z.number().int().positive() }).strict();

/** What the receiving agent's console hears when a chat is handed to them (or to their department). */
export interface ChatTransferredEvent {
  chat: ChatView;
  from_agent: { id: number; name: string };
  to: { agent_id: number } | { department_id: number; department_name: string };
  note: string | null;
}
