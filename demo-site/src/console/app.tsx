import { useState } from 'preact/hooks';
import { ConsoleShell } from './console-shell.tsx';
import { LoginForm } from './login/login-form.tsx';
import type { DesktopNotifier } from './notifications/desktop-notifier.ts';
import type { SavedSession, SessionStorage } from './session/saved-session.ts';

export interface AppProps {
  baseUrl: string;
  sessions: SessionStorage;
  notifier: DesktopNotifier;
  win: Window & typeof globalThis;
}

/** The login form, or the console of the logged-in agent. */
export function App({ baseUrl, sessions, notifier, win }: AppProps) {
  const [saved, setSaved] = useState<SavedSession | null>(() => sessions.load());

  const signIn = (session: SavedSession) => {
    sessions.save(session);
    setSaved(session);
  };
  const signOut = () => {
    sessions.clear();
    setSaved(null);
  };

  if (!saved) return <LoginForm baseUrl={baseUrl} onLoggedIn={signIn} />;
  return <ConsoleShell key={saved.token} baseUrl={baseUrl} saved={saved} notifier={notifier} win={win} onSignOut={signOut} />;
}
