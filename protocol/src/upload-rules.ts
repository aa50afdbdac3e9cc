/** The largest file a visitor or an agent may upload; the widget checks it before sending (no zod here: the
 * widget imports this file). */
export const UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;
