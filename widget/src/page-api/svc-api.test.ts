import { describe, expect, it } from 'vitest';
import type { HostToFrame } from '../bridge/messages.ts';
import type { PageScript, WidgetHost } from '../bridge/widget-host-api.ts';
import type { ViewAction } from '../state/view-state.ts';
import { createSvcApi } from './svc-api.ts';
import type { OfflineMessage, VisitorNumberCallback } from './types.ts';

/** A widget host that records what svc_api asks of it (the real one needs a page and a server). */
function recordingHost() {
  const acts: ViewAction[] = [];
  const pushed: Partial<HostToFrame> = {};
  const callbacks: VisitorNumberCallback[] = [];
  const offline: OfflineMessage[] = [];
  const loads: PageScript[] = [];
  const host: WidgetHost = {
    ready: Promise.resolve(),
    load: (name) => void loads.push(name),
    state: {
      view: 'closed',
      status: 'online',
      contact: {},
      visitor_number: null,
      unread: 0,
      preload: false,
      callback: { result: 'ok' },
    },
    act: (action) => acts.push(action),
    push: (type, data) => void (pushed[type] = data),
    visitorNumber: (callback) => callbacks.push(callback),
    offline: (message) => offline.push(message),
  };
  return { host, acts, pushed, callbacks, offline, loads };
}

describe('svc_api', () => {
  it('sendOfflineMessage answers ok and sends only a message with a way to answer it', () => {
    const { host, offline } = recordingHost();
    const api = createSvcApi(host);
    expect(api.sendOfflineMessage({ name: 'Ann', message: 'Call me' })).toEqual({ result: 'fail', error: 'no email or phone' });
    expect(api.sendOfflineMessage({ email: 'ann@example.com', message: '  ' })).toEqual({ result: 'fail', error: 'no message' });
    expect(() => api.sendOfflineMessage('hi' as never)).toThrow(
      /svc_api.sendOfflineMessage: pass \{name,email,phone,description,message\}/,
    );
    expect(offline).toEqual([]);
    expect(api.sendOfflineMessage({ phone: '+4755501234', message: 'Call me' })).toEqual({ result: 'ok' });
    expect(offline).toEqual([{ phone: '+4755501234', message: 'Call me' }]);
  });

  it('open and close ask the host for the chat, the callback form, or the launcher', () => {
    const { host, acts } = recordingHost();
    const api = createSvcApi(host);
    api.open();
    api.open({ start: 'call' });
    api.close();
    expect(acts).toEqual(['chat', 'call', 'close']);
  });

  it("chatMode answers 'online' or 'offline' from the host's state", () => {
    const { host } = recordingHost();
    const api = createSvcApi(host);
    expect(api.chatMode()).toBe('online');
    host.state = { ...host.state, status: 'offline' };
    expect(api.chatMode()).toBe('offline');
  });

  describe('setContactInfo and getContactInfo', () => {
    it('merges what the page sets, hands it to the frame, and reads back the spec 2.3 contact_info shape', () => {
      const { host, pushed } = recordingHost();
      const api = createSvcApi(host);
      expect(api.getContactInfo()).toEqual({ name: '' });
      api.setContactInfo({ name: 'Ann', description: 'VIP' });
      api.setContactInfo({ email: 'ann@example.com' });
      expect(pushed['contact']).toEqual({ name: 'Ann', description: 'VIP', email: 'ann@example.com' });
      expect(api.getContactInfo()).toEqual({ name: 'Ann', email: 'ann@example.com' });
    });
  });

  describe('setCustomData', () => {
    it("answers {result:'ok'} for an array of fields and hands them over in order", () => {
      const { host, pushed } = recordingHost();
      const fields = [
        { title: 'Plan', content: 'Gold' },
        { key: 'Cart', content: '2 items', link: 'https://shop.example/cart' },
      ];
      expect(createSvcApi(host).setCustomData(fields)).toEqual({ result: 'ok' });
      expect(pushed['fields']).toEqual(fields);
    });

    it("answers the spec's fail result for a non-array, and sends nothing", () => {
      const { host, pushed } = recordingHost();
      const api = createSvcApi(host) as { setCustomData(value: unknown): unknown };
      for (const wrong of ['x', { title: 'a' }, null, 3])
        expect(api.setCustomData(wrong)).toEqual({ result: 'fail', reason: 'Custom data must be array.' });
      expect(pushed).toEqual({});
    });

    it('throws a TypeError naming the field keys for an item that is not an object of strings', () => {
      const { host } = recordingHost();
      expect(() => createSvcApi(host).setCustomData([{ title: 'Plan', content: 5 } as never])).toThrow(
        'svc_api.setCustomData: pass [{title,content,key,link}] as strings',
      );
    });
  });

  describe('setUserToken', () => {
    it("answers {result:'ok', token} and hands the token over", () => {
      const { host, pushed } = recordingHost();
      expect(createSvcApi(host).setUserToken('customer-42')).toEqual({ result: 'ok', token: 'customer-42' });
      expect(pushed['token']).toEqual({ token: 'customer-42', signature: undefined });
    });

    it('hands the signature over, and refuses an unsigned token when the channel verifies visitors', () => {
      const { host, pushed } = recordingHost();
      const api = createSvcApi(host);
      host.verify = true;
      expect(api.setUserToken('customer-42')).toEqual({ result: 'fail', token: false });
      expect(pushed).toEqual({});
      expect(api.setUserToken('customer-42', { signature: 'ab12' })).toEqual({ result: 'ok', token: 'customer-42' });
      expect(pushed['token']).toEqual({ token: 'customer-42', signature: 'ab12' });
    });

    it("answers {result:'fail'} echoing a bad string token, or false when it is not a string", () => {
      const { host, pushed } = recordingHost();
      const api = createSvcApi(host) as { setUserToken(value: unknown): unknown };
      expect(api.setUserToken('')).toEqual({ result: 'fail', token: '' });
      expect(api.setUserToken(42)).toEqual({ result: 'fail', token: false });
      expect(pushed).toEqual({});
    });
  });

  it('getVisitorNumber hands a callback to the host, and throws without one', () => {
    const { host, callbacks } = recordingHost();
    const api = createSvcApi(host);
    const callback = () => undefined;
    api.getVisitorNumber(callback);
    expect(callbacks).toEqual([callback]);
    expect(() => api.getVisitorNumber(undefined as never)).toThrow(TypeError);
  });

  it('startCall checks the number, then answers what the service said about calls, and asks for the call only when ok', () => {
    const { host, acts, pushed } = recordingHost();
    const api = createSvcApi(host);
    expect(api.startCall('12')).toEqual({ result: 'fail', reason: 'Invalid phone number' });
    expect(api.startCall(42 as never)).toEqual({ result: 'fail', reason: 'Invalid phone number' });
    host.state.callback = { result: 'fail', reason: 'Callback unavaiable', detail: 'Outside the call hours' };
    expect(api.startCall('+47 555 01 234')).toEqual(host.state.callback);
    expect(acts).toEqual([]);
    host.state.callback = { result: 'ok' };
    expect(api.startCall('+47 (555) 01-234')).toEqual({ result: 'ok' });
    expect(pushed['call']).toBe('+47 (555) 01-234');
    expect(acts).toEqual(['call']);
  });

  it('isCallbackEnabled answers asynchronously, once the settings are known', async () => {
    const { host } = recordingHost();
    host.state.callback = { result: 'fail', reason: 'Callback disabled', detail: 'Calls are not set up for this channel' };
    const api = createSvcApi(host);
    const answers: unknown[] = [];
    api.isCallbackEnabled((result) => answers.push(result));
    expect(answers).toEqual([]);
    await host.ready;
    expect(answers).toEqual([{ result: 'fail', reason: 'Callback disabled', detail: 'Calls are not set up for this channel' }]);
    expect(() => api.isCallbackEnabled('yes' as never)).toThrow(/svc_api.isCallbackEnabled: pass a function/);
  });

  it('showProactiveInvitation opens the chat with the text; setRules hands the rules to the triggers script', () => {
    const { host, acts, pushed, loads } = recordingHost();
    const api = createSvcApi(host);
    api.showProactiveInvitation('Need help with sizes?', 3);
    expect(pushed.invite).toEqual({ text: 'Need help with sizes?', department_id: 3 });
    expect(acts).toEqual(['chat']);
    expect(() => api.showProactiveInvitation('', 3)).toThrow(/pass \(text, department_id\?\)/);
    expect(() => api.showProactiveInvitation('Hi', '3' as never)).toThrow(/pass \(text, department_id\?\)/);
    const rules = {
      rules: [{ id: 'pricing', action: { type: 'open' as const }, enabled: true, conditions: {}, frequency: 'every_page' as const }],
    };
    api.setRules(rules);
    expect(pushed.rules).toEqual(rules);
    expect(loads).toEqual(['triggers']);
    expect(() => api.setRules([] as never)).toThrow(/svc_api.setRules: pass \{rules:\[\]\}/);
  });
});
