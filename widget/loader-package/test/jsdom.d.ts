// The little of jsdom these tests use. jsdom ships no types, and @types/jsdom is hoisted to the root's
// node_modules/@types, where it gives every package without a `types` list the DOM's fetch types (the server's
// tests stopped compiling).
declare module 'jsdom' {
  export class VirtualConsole {}
  export class JSDOM {
    constructor(html: string, options: { url: string; runScripts: 'dangerously'; resources: 'usable'; virtualConsole: VirtualConsole });
    readonly window: Window & typeof globalThis;
  }
}
