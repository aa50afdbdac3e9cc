import { useEffect, useRef, useState } from 'preact/hooks';
import type { WidgetModel } from '../frame/widget-model.ts';
import { AttachIcon, SendIcon } from './icons.tsx';
import { useStore } from './use-store.ts';

// widget-api.ts VISITOR_TEXT_MAX counts code points; 1000 UTF-16 units are never more than that.
const MAX_LENGTH = 1000;

/** The text box: Enter sends, Shift+Enter starts a new line; typing is reported to the agent. */
export function Composer({ model }: { model: WidgetModel }) {
  const [text, setText] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const view = useStore(model.view);
  const preview = useStore(model.typingPreview);
  const { t } = model.texts;
  useEffect(() => {
    if (view !== 'chat') return;
    box.current?.focus();
    // WebKit lets a script in this (cross-origin) frame move the focus only once the visitor has used the frame,
    // so after opening by keyboard the box may not have it yet: the first key typed while nothing in here is
    // focused moves it there, and that key's text lands in the box (the focus moves before the text is put in).
    const doc = box.current?.ownerDocument;
    const onKey = (event: KeyboardEvent) => {
      const printable = event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;
      if (printable && (doc?.activeElement === doc?.body || !doc?.activeElement)) box.current?.focus();
    };
    doc?.addEventListener('keydown', onKey);
    return () => doc?.removeEventListener('keydown', onKey);
  }, [view]);

  const [attachError, setAttachError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const attach = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    setUploading(true);
    setAttachError(null);
    const problem = await model.attach(file, text.trim());
    setUploading(false);
    if (problem) setAttachError(problem);
    else setText('');
  };

  const send = () => {
    if (!text.trim()) return;
    model.send(text);
    setText('');
  };
  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        ref={box}
        rows={1}
        maxLength={MAX_LENGTH}
        aria-label={t('composer.label')}
        placeholder={t('composer.placeholder')}
        value={text}
        onInput={(event) => {
          const value = event.currentTarget.value;
          setText(value);
          model.typing(value);
        }}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
          event.preventDefault();
          send();
        }}
      />
      <label class="attach" title={t('composer.attach_hint')}>
        <AttachIcon />
        <input
          type="file"
          class="sr"
          aria-label={t('composer.attach')}
          disabled={uploading}
          onChange={(event) => void attach(event.currentTarget)}
        />
      </label>
      <button type="submit" class="send" aria-label={t('composer.send')} disabled={!text.trim()}>
        <SendIcon />
      </button>
      {preview && <p class="typing-preview">{t('typing.preview_notice')}</p>}
      {(uploading || attachError) && (
        <p class="attach-status" role="status">
          {uploading ? t('composer.uploading') : attachError}
        </p>
      )}
    </form>
  );
}
