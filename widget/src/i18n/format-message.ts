/**
 * Fills a catalogue string: `{name}` takes a value as plain text (never read as markup, never read again as a
 * template), and `{count, plural, one {# file} other {# files}}` picks the branch `Intl.PluralRules` names for
 * the count in the language (`=0` matches an exact count), `#` being the count written the language's way.
 */
export type MessageParams = Record<string, string | number>;

const BRANCH = /\s*(=\d+|zero|one|two|few|many|other)\s*\{/y;

/** The index of the `}` that closes the `{` at `open`, or -1. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** The branches of a plural choice's body, by selector (`one`, `=0`...). */
export function pluralBranches(body: string): Map<string, string> {
  const branches = new Map<string, string>();
  BRANCH.lastIndex = 0;
  for (let match = BRANCH.exec(body); match; match = BRANCH.exec(body)) {
    const open = BRANCH.lastIndex - 1;
    const end = closing(body, open);
    if (end < 0) break;
    branches.set(match[1]!, body.slice(open + 1, end));
    BRANCH.lastIndex = end + 1;
  }
  return branches;
}

interface Part {
  /** A placeholder's name; absent for literal text. */
  name?: string;
  /** Literal text, or a plural choice's body. */
  text: string;
  plural?: boolean;
}

function parse(template: string): Part[] {
  const parts: Part[] = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{', at);
    const end = open < 0 ? -1 : closing(template, open);
    if (end < 0) {
      parts.push({ text: template.slice(at) });
      break;
    }
    if (open > at) parts.push({ text: template.slice(at, open) });
    const inner = template.slice(open + 1, end);
    const plural = /^\s*(\w+)\s*,\s*plural\s*,/.exec(inner);
    if (plural) parts.push({ name: plural[1]!, text: inner.slice(plural[0].length), plural: true });
    else if (/^\s*\w+\s*$/.test(inner)) parts.push({ name: inner.trim(), text: '' });
    else parts.push({ text: template.slice(open, end + 1) });
    at = end + 1;
  }
  return parts;
}

export function formatMessage(template: string, params: MessageParams, locale: string): string {
  return parse(template)
    .map((part) => {
      if (part.name === undefined) return part.text;
      const value = params[part.name];
      if (value === undefined) return `{${part.name}}`;
      if (!part.plural) return typeof value === 'number' ? value.toLocaleString(locale) : value;
      const count = Number(value);
      const branches = pluralBranches(part.text);
      const branch = branches.get(`=${count}`) ?? branches.get(new Intl.PluralRules(locale).select(count)) ?? branches.get('other') ?? '';
      return formatMessage(branch.replaceAll('#', `{${part.name}}`), params, locale);
    })
    .join('');
}

/** The placeholder names of a template (a plural choice's name among them), for checking translations. */
export function placeholderNames(template: string): string[] {
  const names = new Set<string>();
  for (const part of parse(template)) {
    if (part.name === undefined) continue;
    names.add(part.name);
    if (part.plural) for (const branch of pluralBranches(part.text).values()) placeholderNames(branch).forEach((n) => names.add(n));
  }
  return [...names].sort();
}
