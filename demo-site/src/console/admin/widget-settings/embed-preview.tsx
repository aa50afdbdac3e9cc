const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The snippet rebuilt from its two parts: the loader's http(s) URL and the widget id, both escaped. The embed
 * text is parsed inertly (DOMParser runs no script), so nothing but this one script element reaches the frame.
 */
export function previewSnippet(embed: string): string | null {
  const script = new DOMParser().parseFromString(embed, 'text/html').querySelector('script[src][data-svc-widget]');
  const src = script?.getAttribute('src') ?? '';
  const widgetId = script?.getAttribute('data-svc-widget') ?? '';
  if (!/^https?:\/\//.test(src) || !widgetId) return null;
  return `<script async src="${escapeAttribute(src)}" data-svc-widget="${escapeAttribute(widgetId)}"></script>`;
}

/** The blank page's look, set through CSSOM: the frame inherits the console's policy, which refuses
 * style attributes (server/src/http/security-headers.ts). */
function styleBlankPage(frame: HTMLIFrameElement) {
  const body = frame.contentDocument?.body;
  if (!body) return;
  Object.assign(body.style, { margin: '0', fontFamily: 'system-ui', color: '#5d6a82' });
  const text = body.querySelector('p');
  if (text) text.style.padding = '1rem';
}

/**
 * The widget as a site's visitors will see it: a blank page holding only the embed snippet, in an iframe.
 * The frame is not sandboxed because the widget keeps its visitor in the page's localStorage, which an
 * opaque-origin frame cannot use; hence the snippet is rebuilt rather than inserted as it came.
 */
export function EmbedPreview({ embed, name }: { embed: string; name: string }) {
  const snippet = previewSnippet(embed);
  if (!snippet) return <p class="muted">No preview: the embed snippet is not the service's loader script.</p>;
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>Preview</title></head><body><p>A page of your site.</p>${snippet}</body></html>`;
  return (
    <iframe class="embed-preview" title={`Preview of the ${name} widget`} srcDoc={page} onLoad={(e) => styleBlankPage(e.currentTarget)} />
  );
}
