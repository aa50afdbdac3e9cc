/** Shape checks shared by the server's schemas and the widget's forms (no zod: the widget imports this file). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A phone number as people type it, E.164-like: an optional +, then 7 to 15 digits once spaces, dots, dashes
 * and brackets are removed. The callback feature's rule, on the page, in the widget and on the server. */
export const isPhoneNumber = (value: string) => /^\+?\d{7,15}$/.test(value.trim().replace(/[\s().-]/g, ''));
