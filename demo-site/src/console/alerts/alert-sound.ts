/** A short two-note chime made with WebAudio: nothing to download, nothing from a CDN. */
export interface AlertSound {
  play(): void;
}

type AudioWindow = Window & typeof globalThis & { webkitAudioContext?: typeof AudioContext };

const NOTES = [
  { frequency: 880, at: 0 },
  { frequency: 1320, at: 0.14 },
];
const NOTE_SECONDS = 0.12;
const VOLUME = 0.08;

/**
 * Browsers let a page make sound only after the user has interacted with it (autoplay policies): before that
 * the chime is skipped, never an error, so a console reopened in a background tab stays silent until clicked.
 */
export function createAlertSound(win: AudioWindow): AlertSound {
  let context: AudioContext | null = null;

  const chime = (ctx: AudioContext) => {
    const start = ctx.currentTime + 0.01;
    for (const note of NOTES) {
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.type = 'sine';
      oscillator.frequency.value = note.frequency;
      gain.gain.setValueAtTime(VOLUME, start + note.at);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + note.at + NOTE_SECONDS);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(start + note.at);
      oscillator.stop(start + note.at + NOTE_SECONDS);
    }
  };

  return {
    play() {
      const Context = win.AudioContext ?? win.webkitAudioContext;
      if (!Context || win.navigator.userActivation?.hasBeenActive === false) return;
      try {
        context ??= new Context();
        const ctx = context;
        if (ctx.state === 'suspended')
          void ctx.resume().then(
            () => chime(ctx),
            () => undefined,
          );
        else chime(ctx);
      } catch {
        // an audio device that fails must not break the console
      }
    },
  };
}
