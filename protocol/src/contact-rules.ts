/** Shape checks shared by the server's schemas and the widget's forms (no zod: the widget imports this file). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
