import { isHttpUrl } from './safe-url.ts';

export type TextPart = { text: string; href?: string };

// Trailing punctuation usually ends the sentence, not the URL.
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'}]/gi;

/**
 * Splits text into plain parts and http(s) links, for rendering as text nodes and anchors: nothing in the text
 * is ever parsed as HTML, and only http(s) URLs become links.
 *
 * @example
 * linkify('see https://example.com.'); // [{text:'see '}, {text:'https://example.com', href:'https://example.com'}, {text:'.'}]
 */
export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0];
    if (!isHttpUrl(url)) continue;
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ text: url, href: url });
    last = match.index + url.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
