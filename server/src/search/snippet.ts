import { searchWordPattern, type SearchHighlight } from '@svc/protocol';
import { PREFIX_FROM } from '../store/search.ts';

/** Characters of context kept around the first match; a longer text is cut at word boundaries with `…`. */
const SNIPPET_CHARS = 160;
const LEAD_CHARS = 40;

/** A word as the indexes compare it: case and Latin diacritics ignored. */
const fold = (word: string) => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

export interface Snippet {
  text: string;
  highlights: SearchHighlight[];
}

/** The words of `text` that match `words` (as the index matched them: whole words, the last also as a prefix). */
export function matchingWords(text: string, words: string[]): SearchHighlight[] {
  const folded = words.map(fold);
  const last = folded.at(-1) ?? '';
  const prefix = [...last].length >= PREFIX_FROM ? last : null;
  const found: SearchHighlight[] = [];
  for (const m of text.matchAll(searchWordPattern)) {
    const word = fold(m[0]);
    if (folded.includes(word) || (prefix !== null && word.startsWith(prefix))) found.push({ start: m.index, end: m.index + m[0].length });
  }
  return found;
}

/**
 * The part of `text` an agent reads in a result: all of it when short, else a window that starts a little before
 * the first match, with the matches' ranges in the window's own offsets. Plain text: the console renders it as text.
 */
export function snippetOf(text: string, words: string[]): Snippet {
  const flat = text.replace(/\s+/g, ' ').trim();
  const all = matchingWords(flat, words);
  if (flat.length <= SNIPPET_CHARS) return { text: flat, highlights: all };
  const first = all[0]?.start ?? 0;
  let start = Math.max(0, first - LEAD_CHARS);
  if (start > 0) start = flat.indexOf(' ', start) + 1 || start;
  if (start > first) start = first;
  let end = Math.min(flat.length, start + SNIPPET_CHARS);
  if (end < flat.length) end = flat.lastIndexOf(' ', end) > start ? flat.lastIndexOf(' ', end) : end;
  const lead = start > 0 ? '… ' : '';
  const tail = end < flat.length ? ' …' : '';
  const highlights = all
    .filter((h) => h.start >= start && h.end <= end)
    .map((h) => ({ start: h.start - start + lead.length, end: h.end - start + lead.length }));
  return { text: `${lead}${flat.slice(start, end)}${tail}`, highlights };
}
