/**
 * Issue 24 typing preview: what the client is typing, not sent yet, greyed below the conversation until the
 * message arrives. Only widget channels with typing_preview send it; it is the client's text, shown as text.
 */
export function ClientDraft({ name, draft }: { name: string; draft: string }) {
  return (
    <figure class="client-draft" aria-label={`${name} is writing (not sent yet)`}>
      <figcaption>{name} is writing (not sent yet)</figcaption>
      <p>{draft}</p>
    </figure>
  );
}
