import { describe, expect, it } from 'vitest';
import { checkCallback, checkOpenOptions, isValidUserToken, stringsOnly } from './validate.ts';

describe('svc_api argument validation', () => {
  describe('open', () => {
    it('accepts nothing, {} and {start: "call" | "chat"}', () => {
      expect(checkOpenOptions(undefined)).toEqual({});
      expect(checkOpenOptions({})).toEqual({});
      expect(checkOpenOptions({ start: 'call' })).toEqual({ start: 'call' });
      expect(checkOpenOptions({ start: 'chat' })).toEqual({ start: 'chat' });
    });

    it('throws a TypeError that shows the right call for anything else', () => {
      for (const wrong of ['call', 42, { start: 'phone' }, { begin: 'call' }, []])
        expect(() => checkOpenOptions(wrong)).toThrow(new TypeError("svc_api.open: pass nothing or {start:'call'}"));
    });
  });

  describe('objects of strings (setContactInfo, setCustomData items)', () => {
    const keys = ['name', 'email', 'phone', 'description'];

    it('passes a copy of an object with known string keys', () => {
      const info = { name: 'Ann', email: undefined };
      const checked = stringsOnly('setContactInfo', info, keys);
      expect(checked).toEqual(info);
      expect(checked).not.toBe(info);
    });

    it('names the allowed keys when a key is unknown, a value is not a string, or it is no object', () => {
      const message = 'svc_api.setContactInfo: pass {name,email,phone,description} as strings';
      for (const wrong of [{ mail: 'a@b.c' }, { name: 42 }, { name: null }, 'Ann', null, ['Ann']])
        expect(() => stringsOnly('setContactInfo', wrong, keys)).toThrow(message);
    });
  });

  describe('setUserToken', () => {
    it('takes a non-empty string of at most 256 characters', () => {
      expect(isValidUserToken('customer-42')).toBe(true);
      expect(isValidUserToken('x'.repeat(256))).toBe(true);
      for (const wrong of ['', '   ', 'x'.repeat(257), 42, null, undefined]) expect(isValidUserToken(wrong)).toBe(false);
    });
  });

  describe('getVisitorNumber', () => {
    it('needs a function', () => {
      const callback = () => undefined;
      expect(checkCallback('getVisitorNumber', callback)).toBe(callback);
      expect(() => checkCallback('getVisitorNumber', 'cb')).toThrow('svc_api.getVisitorNumber: pass a function');
    });
  });
});
