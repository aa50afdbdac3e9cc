import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCallbackDispatcher } from './callbacks.ts';
import type { PageCallbacks } from './types.ts';

describe('page callbacks (spec 6.3)', () => {
  afterEach(() => vi.useRealTimers());

  it('calls the function the page defines, with its arguments, looked up at call time', () => {
    const page: Partial<PageCallbacks> = {};
    const fire = createCallbackDispatcher(page);
    fire('svc_onOpen');
    const states: string[] = [];
    page.svc_onChangeState = (state) => void states.push(state);
    fire('svc_onChangeState', 'chat/min');
    expect(states).toEqual(['chat/min']);
  });

  it('does nothing for a callback the page does not define', () => {
    expect(() => createCallbackDispatcher({})('svc_onAccept')).not.toThrow();
  });

  describe('when a callback throws', () => {
    it('returns normally and rethrows the error on a fresh task, for the console and window.onerror', () => {
      vi.useFakeTimers();
      const error = new Error('page bug');
      const fire = createCallbackDispatcher({
        svc_onOpen: () => {
          throw error;
        },
      });
      expect(() => fire('svc_onOpen')).not.toThrow();
      expect(() => vi.runAllTimers()).toThrow(error);
    });

    it('also survives a page that defines a callback as something not callable', () => {
      vi.useFakeTimers();
      const fire = createCallbackDispatcher({ svc_onOpen: 'yes' } as never);
      expect(() => fire('svc_onOpen')).not.toThrow();
      expect(() => vi.runAllTimers()).toThrow(TypeError);
    });
  });
});
