/**
 * One browser tab as the cross-engine scenarios drive it, whatever drives the engine underneath (Playwright for
 * Chromium, puppeteer-core over WebDriver BiDi for Firefox, webdriverio over classic WebDriver for WebKit).
 * Elements are found by CSS in the host page (open shadow roots included: the launcher lives in one) or in the
 * chat frame, and acted on with real input events.
 */
export interface VisitorTab {
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  /** Runs `script` (an expression) in the host page and returns its JSON-able value. */
  evaluate<T>(script: string): Promise<T>;
  /** Runs `script` (an expression) in the chat frame and returns its JSON-able value; null without a frame. */
  evaluateInChat<T>(script: string): Promise<T | null>;
  /** Clicks the first element matching `css` in `where`, by a real pointer. */
  click(where: Where, css: string): Promise<void>;
  /** Focuses the element by a click, then types `text` with key events (engines differ in "send keys" to frames). */
  type(where: Where, css: string, text: string): Promise<void>;
  /** Presses one key on whatever has the focus. */
  press(key: Key): Promise<void>;
  /** Types `text` with key events into whatever has the focus (no click first). */
  keys(text: string): Promise<void>;
  /**
   * Clicks `trigger` (what opens the file picker) in `where` and answers the picker with the file at `path`, as
   * a visitor picks a file. Where the engine's automation answers pickers through the file input itself (classic
   * WebDriver: Element Send Keys on `input`), that is how the picker is answered.
   */
  chooseFile(where: Where, trigger: string, input: string, path: string): Promise<void>;
  setViewport(width: number, height: number): Promise<void>;
  /** A PNG of the viewport. */
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

export type Where = 'page' | 'chat';
export type Key = 'Enter' | 'Tab' | 'Escape' | 'Space';

/** A browser engine: opens tabs that share its storage, as the tabs of one visitor's browser do. */
export interface Engine {
  readonly name: EngineName;
  newTab(): Promise<VisitorTab>;
  close(): Promise<void>;
}

export type EngineName = 'chromium' | 'firefox' | 'webkit';

/**
 * The in-page search every driver runs: the first match of `css` in the document or in any open shadow root.
 * A function's source, so each driver sends it into the page as it sends scripts.
 */
export function deepQuerySource(css: string): string {
  return `(function find(root) {
    const hit = root.querySelector(${JSON.stringify(css)});
    if (hit) return hit;
    for (const el of root.querySelectorAll('*')) {
      const inner = el.shadowRoot && find(el.shadowRoot);
      if (inner) return inner;
    }
    return null;
  })(document)`;
}

/** The chat frame's element on the host page: inside the launcher's shadow root. */
export const CHAT_FRAME_CSS = 'iframe[title="Chat window"]';
