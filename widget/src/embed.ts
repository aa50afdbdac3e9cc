/**
 * The embed script, loaded by the loader on first need with the loader's shell set on its script element
 * (see bridge/shell.ts). An entry point: the only other file that touches the page when it runs.
 */
import type { ShellScript } from './bridge/shell.ts';
import { runEmbed } from './host/embed-runtime.ts';

const shell = (document.currentScript as ShellScript | null)?.svcShell;
if (shell && !shell.send) runEmbed(document, shell);
