import { isHttpUrl } from './url.ts';

/** The markdown of a MARKDOWN bot message (spec 2.2: link, bold, italic) as a tree that UIs render as
 * text nodes: there is no HTML in it, so nothing else in the content can become markup. */
export type MarkdownNode =
  | { kind: 'text'; text: string }
  | { kind: 'bold' | 'italic'; children: MarkdownNode[] }
  | { kind: 'link'; href: string; children: MarkdownNode[] };

// [text](url), **bold** / __bold__, *italic* / _italic_; the earliest match wins.
const pattern = /\[([^\]\n]+)\]\(([^)\s]+)\)|\*\*(.+?)\*\*|__(.+?)__|\*([^*\n]+)\*|(?<![\w])_([^_\n]+)_(?![\w])/s;

export function parseBotMarkdown(source: string, depth = 0): MarkdownNode[] {
  const nodes: MarkdownNode[] = [];
  const pushText = (text: string) => {
    const last = nodes.at(-1);
    if (last?.kind === 'text') last.text += text;
    else nodes.push({ kind: 'text', text });
  };
  let rest = source;
  while (rest.length > 0) {
    const m = depth < 4 ? pattern.exec(rest) : null;
    if (!m) {
      pushText(rest);
      break;
    }
    if (m.index > 0) pushText(rest.slice(0, m.index));
    const [whole, linkText, href, bold1, bold2, italic1, italic2] = m;
    if (linkText !== undefined && href !== undefined) {
      // Only http(s) links become links; anything else stays visible as the text it was.
      if (isHttpUrl(href)) nodes.push({ kind: 'link', href, children: parseBotMarkdown(linkText, depth + 1) });
      else pushText(whole);
    } else if (bold1 !== undefined || bold2 !== undefined) {
      nodes.push({ kind: 'bold', children: parseBotMarkdown((bold1 ?? bold2)!, depth + 1) });
    } else {
      nodes.push({ kind: 'italic', children: parseBotMarkdown((italic1 ?? italic2)!, depth + 1) });
    }
    rest = rest.slice(m.index + whole.length);
  }
  return nodes;
}
