import type { MessageView } from '@svc/protocol';
import { parseBotMarkdown, type MarkdownNode } from '@svc/protocol/bot-markdown';
import { ExternalLink } from './external-link.tsx';

function Markdown({ nodes }: { nodes: MarkdownNode[] }) {
  return (
    <>
      {nodes.map((node, i) => {
        switch (node.kind) {
          case 'text':
            return node.text;
          case 'bold':
            return (
              <strong key={i}>
                <Markdown nodes={node.children} />
              </strong>
            );
          case 'italic':
            return (
              <em key={i}>
                <Markdown nodes={node.children} />
              </em>
            );
          case 'link':
            return (
              <ExternalLink key={i} href={node.href}>
                <Markdown nodes={node.children} />
              </ExternalLink>
            );
        }
      })}
    </>
  );
}

/** A bot's MARKDOWN (link, bold, italic; the rest as text) or BUTTONS message, as the client saw it. */
export function BotBody({ message }: { message: MessageView }) {
  if (message.type === 'markdown') {
    return (
      <p class="msg-text">
        <Markdown nodes={parseBotMarkdown(message.content ?? message.text ?? '')} />
      </p>
    );
  }
  return (
    <div class="msg-buttons">
      <p class="msg-text">{message.title}</p>
      <ul aria-label="Buttons offered to the client">
        {(message.buttons ?? []).map((b, i) => (
          <li key={i} class="msg-button">
            {b.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
