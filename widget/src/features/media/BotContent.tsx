import type { VisitorMessageView } from '@svc/protocol';
import { parseBotMarkdown, type MarkdownNode } from '@svc/protocol/bot-markdown';
import type { Texts } from '../../i18n/texts.ts';
import { safeHttpUrl } from '../../lib/safe-url.ts';

function Markdown({ nodes }: { nodes: MarkdownNode[] }) {
  return (
    <>
      {nodes.map((node, i) => {
        if (node.kind === 'text') return node.text;
        const children = <Markdown nodes={node.children} />;
        if (node.kind !== 'link') return node.kind === 'bold' ? <strong key={i}>{children}</strong> : <em key={i}>{children}</em>;
        const href = safeHttpUrl(node.href);
        return href ? (
          <a key={i} href={href} target="_blank" rel="noopener noreferrer">
            {children}
          </a>
        ) : (
          <span key={i}>{children}</span>
        );
      })}
    </>
  );
}

/**
 * A bot's MARKDOWN (link, bold, italic; everything else shown as text) or BUTTONS message (spec 2.2). A
 * button sends its text as the visitor's answer, with its id when it has one.
 */
export function BotContent({
  message,
  choose,
  texts,
}: {
  message: VisitorMessageView;
  choose?: (text: string, id?: string) => void;
  texts: Texts;
}) {
  if (message.type === 'markdown') {
    return (
      <p class="markdown">
        <Markdown nodes={parseBotMarkdown(message.content ?? message.text ?? '')} />
      </p>
    );
  }
  return (
    <div class="bot-buttons">
      <p>{message.title}</p>
      <div role="group" aria-label={message.title ?? texts.t('media.choices')}>
        {(message.buttons ?? []).map((b, i) => (
          <button key={i} type="button" class="choice" disabled={!choose} onClick={() => choose?.(b.text, b.id)}>
            {b.text}
          </button>
        ))}
      </div>
    </div>
  );
}
