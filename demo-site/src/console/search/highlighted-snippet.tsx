import type { SearchHighlight } from '@svc/protocol';

/** The snippet's pieces in order, each marked or not; ranges out of order, overlapping or out of bounds are dropped. */
export function snippetPieces(text: string, highlights: readonly SearchHighlight[]): { text: string; marked: boolean }[] {
  const pieces: { text: string; marked: boolean }[] = [];
  let at = 0;
  for (const h of [...highlights].sort((a, b) => a.start - b.start)) {
    if (h.start < at || h.end > text.length || h.end <= h.start) continue;
    if (h.start > at) pieces.push({ text: text.slice(at, h.start), marked: false });
    pieces.push({ text: text.slice(h.start, h.end), marked: true });
    at = h.end;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), marked: false });
  return pieces;
}

/** A result's snippet with its matching words in `<mark>`: text nodes only, whatever the customer wrote. */
export function HighlightedSnippet({ text, highlights }: { text: string; highlights: readonly SearchHighlight[] }) {
  return (
    <span class="search-snippet">
      {snippetPieces(text, highlights).map((piece, i) => (piece.marked ? <mark key={i}>{piece.text}</mark> : piece.text))}
    </span>
  );
}
