import type { Invitation, TriggerRules } from '@svc/protocol';
import { isPhoneNumber } from '@svc/protocol/contact-rules';
import type { OpenOptions } from './types.ts';

/** A wrong call of svc_api: the message says how to call it right. */
const usage = (method: string, fix: string): never => {
  throw new TypeError(`svc_api.${method}: ${fix}`);
};

/**
 * The argument when it is an object with only these keys, each a string (or left undefined); else the usage
 * error naming them. What the values mean is checked by the server, which trusts nothing from the page (spec 5.5).
 */
export const stringsOnly = <T>(method: string, value: unknown, keys: string[], fix = `pass {${keys}} as strings`): T =>
  value &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.entries(value).every(([key, v]) => keys.includes(key) && (v === undefined || typeof v === 'string'))
    ? ({ ...value } as T)
    : usage(method, fix);

/** spec 4.4 open: no argument, or `{start: 'call'}` for the callback form. */
export function checkOpenOptions(value: unknown): OpenOptions {
  const fix = "pass nothing or {start:'call'}";
  const options = stringsOnly<OpenOptions>('open', value ?? {}, ['start'], fix);
  return !options.start || options.start === 'chat' || options.start === 'call' ? options : usage('open', fix);
}

/** spec 4.4 setUserToken: a non-empty string of at most 256 characters. */
export const isValidUserToken = (token: unknown): token is string => typeof token === 'string' && !!token.trim() && token.length <= 256;

/** A callback argument, or the usage error. */
export const checkCallback = <F>(method: string, value: unknown): F =>
  typeof value === 'function' ? (value as F) : usage(method, 'pass a function');

/** startCall's number: a string of the callback feature's phone rule (protocol/src/contact-rules.ts). */
export const isCallablePhone = (value: unknown): value is string => typeof value === 'string' && isPhoneNumber(value);

/** setRules: the rules object of the admin panel, `{rules: [...]}`; each rule is checked when it is run. */
export const checkRules = (value: unknown) =>
  Array.isArray((value as { rules?: unknown } | null)?.rules) ? (value as TriggerRules) : usage('setRules', 'pass {rules:[]}');

/** showProactiveInvitation: some text, and a department id when one is given. */
export const checkInvitation = (text: unknown, departmentId: unknown): Invitation =>
  typeof text === 'string' && text.trim() && (departmentId === undefined || Number.isInteger(departmentId))
    ? { text, department_id: departmentId as number | undefined }
    : usage('showProactiveInvitation', 'pass (text, department_id?)');
