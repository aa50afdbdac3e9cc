import { describe, expect, it } from 'vitest';
import { snippetPieces } from './highlighted-snippet.tsx';

describe('snippetPieces', () => {
  it('cuts the snippet into plain and marked pieces in order', () => {
    expect(
      snippetPieces('a café crème', [
        { start: 7, end: 12 },
        { start: 2, end: 6 },
      ]),
    ).toEqual([
      { text: 'a ', marked: false },
      { text: 'café', marked: true },
      { text: ' ', marked: false },
      { text: 'crème', marked: true },
    ]);
  });

  it('drops ranges that overlap, are empty or run past the text, and keeps the text whole', () => {
    const pieces = snippetPieces('hello world', [
      { start: 0, end: 5 },
      { start: 3, end: 8 },
      { start: 6, end: 6 },
      { start: 6, end: 40 },
    ]);
    expect(pieces).toEqual([
      { text: 'hello', marked: true },
      { text: ' world', marked: false },
    ]);
    expect(pieces.map((p) => p.text).join('')).toBe('hello world');
  });
});
