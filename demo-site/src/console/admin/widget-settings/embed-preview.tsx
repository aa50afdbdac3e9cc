/**
 * The widget as a site's visitors will see it: a blank page holding only the embed snippet, in an iframe.
 * The snippet is the server's own (`<script src="<public URL>/widget/loader.js" ...>`), never an outside
 * party's text; the frame is not sandboxed because the widget keeps its visitor in the page's localStorage,
 * which an opaque-origin frame cannot use.
 */
export function EmbedPreview({ embed, name }: { embed: string; name: string }) {
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>Preview</title></head><body style="margin:0;font-family:system-ui;color:#5d6a82"><p style="padding:1rem">A page of your site.</p>${embed}</body></html>`;
  return <iframe class="embed-preview" title={`Preview of the ${name} widget`} srcDoc={page} />;
}
