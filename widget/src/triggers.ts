/**
 * The triggers script, loaded by the loader when the channel has trigger rules or the page calls setRules,
 * with the loader's shell set on its script element (see bridge/shell.ts). An entry point.
 */
import type { ShellScript } from './bridge/shell.ts';
import { runTriggers } from './triggers/run-triggers.ts';

const shell = (document.currentScript as ShellScript | null)?.svcShell;
if (shell) runTriggers(window, shell);
