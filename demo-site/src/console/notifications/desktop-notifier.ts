export interface DesktopNotice {
  title: string;
  body: string;
  /** Notices with one tag replace each other instead of piling up. */
  tag: string;
  onClick?: () => void;
}

export interface DesktopNotifier {
  /** Shows the notice when the agent allowed notifications and the console tab is hidden. */
  notify(notice: DesktopNotice): void;
}

export function createDesktopNotifier(win: Window & typeof globalThis): DesktopNotifier {
  return {
    notify(notice) {
      const Notice = win.Notification;
      if (!Notice || Notice.permission !== 'granted' || !win.document.hidden) return;
      const shown = new Notice(notice.title, { body: notice.body, tag: notice.tag });
      shown.onclick = () => {
        win.focus();
        notice.onClick?.();
        shown.close();
      };
    },
  };
}
