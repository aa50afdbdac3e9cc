import { lazy } from './lazy.ts';

// The parts of the window a visitor sees only now and then, each its own chunk (widget/bench/size.mjs prints
// them apart from the first load).
export const CallbackForm = lazy(() => import('../features/callback-form/CallbackForm.tsx').then((m) => m.CallbackForm));
export const OfflineForm = lazy(() => import('../features/offline-form/OfflineForm.tsx').then((m) => m.OfflineForm));
export const ContactForm = lazy(() => import('../features/contact-form/ContactForm.tsx').then((m) => m.ContactForm));
export const EndChatConfirm = lazy(() => import('../features/end-chat/EndChatConfirm.tsx').then((m) => m.EndChatConfirm));
export const RatingPrompt = lazy(() => import('../features/rating/RatingPrompt.tsx').then((m) => m.RatingPrompt));

/** Fetches them all, once the window has nothing else to do. */
export const preloadFeatures = () =>
  [CallbackForm, OfflineForm, ContactForm, EndChatConfirm, RatingPrompt].forEach((part) => void part.preload());
