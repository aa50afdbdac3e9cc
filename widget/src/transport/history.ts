import type { WidgetSession } from '@svc/protocol';
import type { Conversation, ConversationEvent } from '../state/conversation.ts';
import type { VisitorSocket } from './visitor-socket.ts';

type Apply = (event: ConversationEvent) => void;

let fetching = false;

/** The page of the chat before `before`, into the conversation; `scrolled`: the visitor asked, so it says
 * whether more are older. Undefined when the server did not answer. */
async function fetchOlder(socket: VisitorSocket, apply: Apply, chat_id: number, before: number, scrolled: boolean) {
  const answer = await socket
    .timeout(10_000)
    .emitWithAck('messages:older', { chat_id, before })
    .catch(() => null);
  if (!answer?.ok || !answer.value) return undefined;
  apply({ type: 'history', messages: answer.value.messages, older: scrolled ? answer.value.older : undefined });
  return answer.value;
}

/** The chat's page before its first message shown, one request at a time. `shown`: the first message on screen
 * when the visitor scrolled up. A smooth scroll still runs to the top after the page it asked for came (and before
 * that page is drawn): that asks too, and must not fetch the page before the one just put above. */
export async function loadOlder(socket: VisitorSocket, { chatId, older, messages }: Conversation, apply: Apply, shown: number) {
  const first = messages.find((m) => m.chat_id === chatId);
  if (fetching || !older || !chatId || !first || messages[0]!.id !== shown) return;
  fetching = true;
  await fetchOlder(socket, apply, chatId, first.id, true);
  fetching = false;
}

/** A session after a reconnect names the newest page only: the pages between it and `known` (the newest message
 * shown before) are fetched too, so nothing missed meanwhile is left out. */
export async function fillGap(socket: VisitorSocket, apply: Apply, chat: NonNullable<WidgetSession['chat']>, known: number) {
  let oldest = chat.messages[0]?.id;
  for (let more = chat.older; oldest && more && oldest > known;) {
    const page = await fetchOlder(socket, apply, chat.id, oldest, false);
    oldest = page?.messages[0]?.id;
    more = page?.older;
  }
}
