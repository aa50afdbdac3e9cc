import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const libs = ['lib.es2022.d.ts', 'lib.dom.d.ts'];

/** Strict type errors of an app's ES module, its imports resolved as a bundler does (package `exports`). */
export function typeErrorsOfModule(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: libs,
    types: [],
    skipDefaultLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

/**
 * A page author's TypeScript toolchain, reduced to what matters here: a strict compile of one page script with
 * the served declarations beside it (as docs/widget.md tells them to save it), and the script as a browser runs it.
 */
export function compilePageScript(source: string, declarations: string): { errors: string[]; javascript: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-page-script-'));
  try {
    fs.writeFileSync(path.join(dir, 'svc-api.d.ts'), declarations);
    fs.writeFileSync(path.join(dir, 'page-script.ts'), source);
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2020,
      lib: ['lib.es2020.d.ts', 'lib.dom.d.ts'],
      types: [],
      // The served declarations are checked; TypeScript's own lib files need not be, every time.
      skipLibCheck: false,
      skipDefaultLibCheck: true,
    };
    const program = ts.createProgram([path.join(dir, 'page-script.ts')], options);
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    const javascript = ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2020 } }).outputText;
    return { errors, javascript };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
