import type { VisitorMessageView } from '@svc/protocol';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { MessageContent } from '../features/media/MessageContent.tsx';
import { RatingPrompt } from '../features/rating/RatingPrompt.tsx';
import type { WidgetModel } from '../frame/widget-model.ts';
import type { OutboxItem } from '../transport/outbox.ts';
import { formatTime } from './format.ts';
import { LinkedText } from './LinkedText.tsx';
import { useStore } from './use-store.ts';

function Time({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={new Date(iso).toLocaleString()}>
      {formatTime(iso)}
    </time>
  );
}

function Message({ message, choose }: { message: VisitorMessageView; choose?: (text: string, id?: string) => void }) {
  if (message.author === 'system')
    return (
      <li class="msg system">
        <LinkedText text={message.text ?? ''} />
      </li>
    );
  const mine = message.author === 'visitor';
  const who = mine ? 'You' : message.author === 'bot' ? 'Bot' : (message.agent?.name ?? 'Agent');
  return (
    <li class={`msg ${mine ? 'mine' : 'theirs'}`}>
      {!mine && <span class="name">{who}</span>}
      {mine && <span class="sr">You said:</span>}
      <div class="bubble">
        <MessageContent message={message} choose={choose} />
      </div>
      <div class="meta">
        <Time iso={message.created_at} />
        {mine && <span class="delivery">Sent</span>}
      </div>
    </li>
  );
}

const DELIVERY = { queued: 'Waiting for connection', sending: 'Sending…', failed: 'Not sent' } as const;

/** A message of the visitor the server has not confirmed yet, with its delivery state. */
function Pending({ item, retry, online }: { item: OutboxItem; retry: (id: string) => void; online: boolean }) {
  return (
    <li class={`msg mine ${item.state}`}>
      <span class="sr">You said:</span>
      <div class="bubble">
        {item.attachment && <p class="attachment-name">📎 {item.attachment.file_name}</p>}
        <LinkedText text={item.text} />
      </div>
      <div class="meta">
        <Time iso={item.created_at} />
        <span class="delivery">{item.state === 'queued' && online ? DELIVERY.sending : DELIVERY[item.state]}</span>
        {item.state === 'failed' && (
          <>
            {item.error && <span class="dim"> ({item.error})</span>}{' '}
            <button type="button" class="link" onClick={() => retry(item.client_msg_id)}>
              Retry
            </button>
          </>
        )}
      </div>
    </li>
  );
}

/** The conversation: the server's messages, then the visitor's messages still on their way. */
export function MessageList({ model }: { model: WidgetModel }) {
  const { messages, endedAfter, invitation, live } = useStore(model.conversation);
  const team = useStore(model.title);
  const outbox = useStore(model.outbox);
  const online = useStore(model.connection) === 'online';
  const log = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = log.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages.length, outbox.length, endedAfter]);
  // While the bot is the one answering, the visitor can ask for a person; only the newest buttons can be chosen.
  const lastAnswer = [...messages].reverse().find((m) => m.author !== 'visitor');
  const botAnswering = lastAnswer?.author === 'bot' && lastAnswer.id !== endedAfter;
  const [asking, setAsking] = useState(false);
  // spec 2.3 chat.rate, at the end of a chat an agent answered in, until the visitor writes again.
  const endedChat = messages.find((m) => m.id === endedAfter)?.chat_id;
  const askRating = !live && online && messages.some((m) => m.chat_id === endedChat && m.author === 'agent');
  const askForPerson = async () => {
    setAsking(true);
    await model.requestAgent();
    setAsking(false);
  };
  return (
    // A log is polite by itself, but it would read out the whole history a session brings back: the
    // Announcer (App.tsx) says each new message once instead.
    <div class="log" role="log" aria-label="Messages" aria-live="off" tabIndex={0} ref={log}>
      <ol>
        {invitation ? (
          <li class="msg theirs invitation">
            <span class="name">{team}</span>
            <div class="bubble">
              <LinkedText text={invitation} />
            </div>
          </li>
        ) : (
          messages.length === 0 && outbox.length === 0 && <li class="msg system">Ask us anything: we are happy to help.</li>
        )}
        {messages.map((m) => [
          <Message key={m.id} message={m} choose={botAnswering && m.id === lastAnswer.id ? model.send : undefined} />,
          m.id === endedAfter && (
            <li key={`end-${m.id}`} class="msg system ended">
              The chat has ended. Write again to start a new one.
            </li>
          ),
          m.id === endedAfter && askRating && <RatingPrompt key={`rate-${m.chat_id}`} model={model} />,
        ])}
        {outbox.map((item) => (
          <Pending key={item.client_msg_id} item={item} retry={model.retry} online={online} />
        ))}
        {botAnswering && online && (
          <li class="msg system">
            <button type="button" class="link" disabled={asking} onClick={() => void askForPerson()}>
              Talk to a person
            </button>
          </li>
        )}
      </ol>
    </div>
  );
}
