import { useState } from 'preact/hooks';
import { login } from '../api/api-client.ts';
import { errorText } from '../api/api-error.ts';
import type { SavedSession } from '../session/saved-session.ts';
import { FirstAdminForm } from './first-admin-form.tsx';

interface LoginFormProps {
  baseUrl: string;
  onLoggedIn: (session: SavedSession) => void;
}

/** E-mail and password against `POST /api/v1/auth/login`; the API's own error message is shown as is. */
export function LoginForm({ baseUrl, onLoggedIn }: LoginFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [firstAdmin, setFirstAdmin] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onLoggedIn(await login(baseUrl, { email: email.trim(), password }));
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };

  if (firstAdmin) return <FirstAdminForm baseUrl={baseUrl} onLoggedIn={onLoggedIn} onCancel={() => setFirstAdmin(false)} />;
  return (
    <main class="login">
      <form class="login-card" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">Agents' console</h1>
        <p class="muted">Sign in to answer your customers.</p>
        <label for="login-email">E-mail</label>
        <input
          id="login-email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <label for="login-password">Password</label>
        <input
          id="login-password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        {error && (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="button button--primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <button type="button" class="button button--ghost" onClick={() => setFirstAdmin(true)}>
          New server? Create the first admin
        </button>
      </form>
    </main>
  );
}
