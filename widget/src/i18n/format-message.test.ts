import { describe, expect, it } from 'vitest';
import ru from './locales/ru.ts';
import pl from './locales/pl.ts';
import uk from './locales/uk.ts';
import ar from './locales/ar.ts';
import { formatMessage, placeholderNames } from './format-message.ts';

describe('formatMessage', () => {
  it('fills placeholders as text, never reading a value as a template', () => {
    expect(formatMessage('{name} is typing…', { name: '<b>{count}</b>' }, 'en')).toBe('<b>{count}</b> is typing…');
    expect(formatMessage('Hi {name}', {}, 'en')).toBe('Hi {name}');
  });

  it('picks the plural form of the language, the count written its way', () => {
    const unread = '{count, plural, one {# unread message} other {# unread messages}}';
    expect(formatMessage(unread, { count: 1 }, 'en')).toBe('1 unread message');
    expect(formatMessage(unread, { count: 1200 }, 'en')).toBe('1,200 unread messages');
    expect(formatMessage('{count, plural, =0 {none} other {#}}', { count: 0 }, 'en')).toBe('none');
  });

  it('says 1, 2, 5, 21, 22 and 25 the Russian, Ukrainian and Polish way', () => {
    const open = (template: string, locale: string) => [1, 2, 5, 21, 22, 25].map((count) => formatMessage(template, { count }, locale));
    expect(open(ru['launcher.open_unread'], 'ru')).toEqual([
      'Открыть чат, 1 непрочитанное сообщение',
      'Открыть чат, 2 непрочитанных сообщения',
      'Открыть чат, 5 непрочитанных сообщений',
      'Открыть чат, 21 непрочитанное сообщение',
      'Открыть чат, 22 непрочитанных сообщения',
      'Открыть чат, 25 непрочитанных сообщений',
    ]);
    expect(open(uk['launcher.open_unread'], 'uk')).toEqual([
      'Відкрити чат, 1 непрочитане повідомлення',
      'Відкрити чат, 2 непрочитані повідомлення',
      'Відкрити чат, 5 непрочитаних повідомлень',
      'Відкрити чат, 21 непрочитане повідомлення',
      'Відкрити чат, 22 непрочитані повідомлення',
      'Відкрити чат, 25 непрочитаних повідомлень',
    ]);
    expect(open(pl['launcher.open_unread'], 'pl')).toEqual([
      'Otwórz czat, 1 nieprzeczytana wiadomość',
      'Otwórz czat, 2 nieprzeczytane wiadomości',
      'Otwórz czat, 5 nieprzeczytanych wiadomości',
      'Otwórz czat, 21 nieprzeczytanych wiadomości',
      'Otwórz czat, 22 nieprzeczytane wiadomości',
      'Otwórz czat, 25 nieprzeczytanych wiadomości',
    ]);
    expect(formatMessage(ru['banner.queued'], { count: 1 }, 'ru')).toBe('Ваше сообщение будет отправлено, когда связь восстановится.');
    expect(formatMessage(ru['banner.queued'], { count: 21 }, 'ru')).toBe('Ваше 21 сообщение будет отправлено, когда связь восстановится.');
  });

  it('has the Arabic dual', () => {
    expect(formatMessage(ar['launcher.open_unread'], { count: 2 }, 'ar')).toBe('فتح الدردشة، رسالتان غير مقروءتين');
    expect(formatMessage(ar['launcher.open_unread'], { count: 3 }, 'ar')).toBe('فتح الدردشة، 3 رسائل غير مقروءة');
  });

  it('names the placeholders of a template, inside plural forms too', () => {
    expect(placeholderNames('{count, plural, one {# for {name}} other {#}} at {time}')).toEqual(['count', 'name', 'time']);
  });
});
