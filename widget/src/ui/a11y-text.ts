import type { VisitorMessageView } from '@svc/protocol';

/**
 * The English words of ending a chat, its rating and what screen readers are told, in one place until the
 * message catalogue (branch widget-language) takes them over.
 */
export const a11yText = {
  endChat: 'End chat',
  endQuestion: 'End this chat?',
  keepChatting: 'Keep chatting',
  endFailed: 'The chat could not be ended. Try again.',
  ratingQuestion: 'How was this conversation?',
  rateGood: 'Rate this conversation as good',
  rateBad: 'Rate this conversation as bad',
  rated: 'Thanks for your feedback.',
  rateFailed: 'Your rating was not sent. Try again.',
  chatEnded: 'The chat has ended.',
  agent: 'Agent',
  bot: 'Bot',
  sentAttachment: 'sent an attachment',
};

/** What a screen reader says when a message of the agent, the bot or the service arrives. */
export function announcementOf(message: VisitorMessageView): string {
  const content = message.text ?? message.title ?? a11yText.sentAttachment;
  if (message.author === 'system') return content;
  const who = message.author === 'bot' ? a11yText.bot : (message.agent?.name ?? a11yText.agent);
  return `${who}: ${content}`;
}
