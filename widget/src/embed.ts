/**
 * The embed script, loaded by the loader on first need with the loader's shell set on its script element
 * (see bridge/shell.ts). An entry point: the only other file that touches the page when it runs.
 */
import type { ShellScript } from './bridge/shell.ts';
import { runEmbed } from './host/embed-runtime.ts';

const script = document.currentScript as ShellScript | null;
const shell = script?.svcShell;
// The chat frame is served beside this script. It names its widget: the service lets only the sites the
// channel lists frame it, and the frame starts for that widget only.
if (shell && !shell.send) runEmbed(document, shell, new URL(`frame.html?w=${encodeURIComponent(shell.widgetId)}`, script!.src).href);
