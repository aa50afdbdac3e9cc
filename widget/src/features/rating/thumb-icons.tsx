/** Thumbs up and down, drawn inline: an emoji renders as an empty box where no emoji font is installed. */
const THUMB_UP =
  'M2 21h4V9H2v12zm20-11a2 2 0 0 0-2-2h-6.3l1-4.6v-.3c0-.4-.2-.8-.5-1.1L13.2 1 6.6 7.6C6.2 8 6 8.5 6 9v10a2 2 0 0 0 2 2h9c.8 0 1.5-.5 1.8-1.2l3-7c.1-.3.2-.5.2-.8v-2z';

export const ThumbUpIcon = () => (
  <svg width="22" height="22" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
    <path d={THUMB_UP} />
  </svg>
);

export const ThumbDownIcon = () => (
  <svg width="22" height="22" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
    <path d={THUMB_UP} transform="rotate(180 12 12)" />
  </svg>
);
