import type { CallbackAvailability, ContactInfo, CustomDataField, StartCallResult } from '@svc/protocol';
import { callSafely, pageEventType } from './callbacks.ts';
import type { WidgetHost } from '../bridge/widget-host-api.ts';
import { CUSTOM_DATA_NOT_ARRAY, type OfflineMessage, type SvcApi, type VisitorNumberCallback } from './types.ts';
import {
  checkCallback,
  checkInvitation,
  checkOpenOptions,
  checkRules,
  isCallablePhone,
  isValidUserToken,
  stringsOnly,
} from './validate.ts';

/**
 * svc_api (spec 4.4): validates every call, answers with the spec's result shapes and hands the rest to the
 * widget host. setCustomData and setUserToken answer `fail` on a bad argument as the spec says; any other
 * wrong call throws a TypeError that says how to fix it.
 */
const CONTACT_KEYS = ['name', 'email', 'phone', 'description'];

export const createSvcApi = (host: WidgetHost): SvcApi => ({
  open: (options) => host.act(checkOpenOptions(options).start === 'call' ? 'call' : 'chat'),
  close: () => host.act('close'),
  chatMode: () => host.state.status,
  getContactInfo() {
    const { name = '', phone, email } = host.state.contact;
    return { name, ...(phone && { phone }), ...(email && { email }) };
  },
  getVisitorNumber: (callback) => host.visitorNumber(checkCallback<VisitorNumberCallback>('getVisitorNumber', callback)),
  setContactInfo(info) {
    const contact = stringsOnly<ContactInfo>('setContactInfo', info, CONTACT_KEYS);
    // Merged here, so the frame always gets everything the page has set, whenever it loads.
    host.push('contact', (host.state.contact = { ...host.state.contact, ...contact }));
  },
  setCustomData(fields) {
    if (!Array.isArray(fields)) return { result: 'fail', reason: CUSTOM_DATA_NOT_ARRAY };
    const keys = ['title', 'content', 'key', 'link'];
    host.push(
      'fields',
      fields.map((field) => stringsOnly<CustomDataField>('setCustomData', field, keys, `pass [{${keys}}] as strings`)),
    );
    return { result: 'ok' };
  },
  sendOfflineMessage(message) {
    // A call that is not an object of strings throws, as every misuse of svc_api does; the spec's fail
    // results are for what the visitor left out.
    const m = stringsOnly<OfflineMessage>('sendOfflineMessage', message, [...CONTACT_KEYS, 'message']);
    // The same rules as the server's (which checks again): something to answer, and a way to answer it.
    if (!m.message?.trim()) return { result: 'fail', error: 'no message' };
    if (!m.email?.trim() && !m.phone?.trim()) return { result: 'fail', error: 'no email or phone' };
    host.offline(m);
    return { result: 'ok' };
  },
  setRules(rules) {
    host.push('rules', checkRules(rules));
    host.load('triggers');
  },
  showProactiveInvitation(text, departmentId) {
    host.push('invite', checkInvitation(text, departmentId));
    host.act('chat');
  },
  startCall(phone) {
    const result: StartCallResult = isCallablePhone(phone) ? host.state.callback : { result: 'fail', reason: 'Invalid phone number' };
    if (result.result === 'ok') {
      host.push('call', phone as string);
      host.act('call');
    }
    return result;
  },
  isCallbackEnabled(callback) {
    const answer = checkCallback<(result: CallbackAvailability) => void>('isCallbackEnabled', callback);
    void host.ready.then(() => callSafely(answer, host.state.callback));
  },
  on(event, listener) {
    const call = checkCallback<(data: unknown) => void>('on', listener);
    const handler = (e: Event) => call((e as CustomEvent).detail);
    addEventListener(pageEventType(event), handler);
    return () => removeEventListener(pageEventType(event), handler);
  },
  setUserToken(token, options) {
    const signature = options?.signature;
    if (!isValidUserToken(token)) return { result: 'fail', token: typeof token === 'string' && token };
    // A channel that verifies visitors refuses an unsigned token; a wrong signature only its server can tell.
    if (host.verify && !signature) return { result: 'fail', token: false };
    host.push('token', { token, signature });
    return { result: 'ok', token };
  },
});
