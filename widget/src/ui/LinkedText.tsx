import { linkify } from '../lib/linkify.ts';

/** Text with its http(s) URLs as links; everything else stays text (never HTML). */
export function LinkedText({ text }: { text: string }) {
  return (
    <>
      {linkify(text).map((part, i) =>
        part.href ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow">
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
