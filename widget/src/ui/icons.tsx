/** Small inline icons; decorative (the buttons carry the labels). */
const icon = (d: string) => () => (
  <svg width="20" height="20" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
    <path d={d} />
  </svg>
);

export const SendIcon = icon('M3 20.5 21 12 3 3.5 3 10l12 2-12 2z');
export const AttachIcon = icon(
  'M16.5 6v11.5a4 4 0 0 1-8 0V5a2.5 2.5 0 0 1 5 0v10.5a1 1 0 0 1-2 0V6H10v9.5a2.5 2.5 0 0 0 5 0V5a4 4 0 0 0-8 0v12.5a5.5 5.5 0 0 0 11 0V6z',
);
export const PhoneIcon = icon(
  'M6.6 10.8a15.2 15.2 0 0 0 6.6 6.6l2.2-2.2c.3-.3.7-.4 1-.2 1.1.4 2.3.6 3.6.6.6 0 1 .4 1 1V20c0 .6-.4 1-1 1A17 17 0 0 1 3 4c0-.6.4-1 1-1h3.5c.6 0 1 .4 1 1 0 1.3.2 2.5.6 3.6.1.3 0 .7-.2 1z',
);
export const PersonIcon = icon('M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zm0 2c-3 0-9 1.5-9 4.5V21h18v-2.5c0-3-6-4.5-9-4.5z');
export const MinimizeIcon = icon('M5 11h14v2H5z');
export const EndChatIcon = icon(
  'M10 17l1.4-1.4-2.6-2.6H19v-2H8.8l2.6-2.6L10 7l-5 5 5 5zM5 21h7v-2H5V5h7V3H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2z',
);
export const ChatIcon = icon('M3 4h18v13H9l-5 4v-4H3z');
