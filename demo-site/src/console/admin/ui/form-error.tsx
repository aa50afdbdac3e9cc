/** The reason a form was refused (our check or the API's message), announced to screen readers. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p class="form-error" role="alert">
      {message}
    </p>
  );
}

/** What a form just did ("Saved."), announced politely. */
export function FormNotice({ message }: { message: string | null }) {
  return (
    <p class="form-notice" role="status">
      {message}
    </p>
  );
}
