import { validate, type CompilerOptions } from '@litko/yara-x';

/** A YARA source larger than this is refused before the compiler sees it. */
export const MAX_YARA_SOURCE_BYTES = 5 * 1024 * 1024;

/**
 * The external variables every rule may use, as THOR and LOKI define them: the scanned file's
 * name, full path, extension with its dot (".exe") and a short type name ("EXE", "ELF").
 */
export const YARA_EXTERNALS = ['filename', 'filepath', 'extension', 'filetype'] as const;
export type YaraExternals = Partial<Record<(typeof YARA_EXTERNALS)[number], string>>;

export interface YaraDiagnostic {
  code: string;
  message: string;
  line: number | null;
  column: number | null;
}

export type YaraCompileCheck =
  | { ok: true; warnings: YaraDiagnostic[] }
  | { ok: false; reason: string; errors: YaraDiagnostic[]; warnings: YaraDiagnostic[] };

/** Compiler options every Vigil compile uses: the externals defined empty, and no `include` of other files. */
export function compilerOptions(): CompilerOptions {
  return {
    defineVariables: Object.fromEntries(YARA_EXTERNALS.map((name) => [name, ''])),
    enableIncludes: false,
  };
}

function diagnostic(d: { code: string; message: string; line?: number; column?: number }): YaraDiagnostic {
  // yara-x puts the position in the message ("--> line:3:21") when it does not give it apart.
  const at = /--> line:(\d+):(\d+)/.exec(d.message);
  return {
    code: d.code,
    message: d.message,
    line: d.line ?? (at ? Number(at[1]) : null),
    column: d.column ?? (at ? Number(at[2]) : null),
  };
}

/** The first line of a compiler message with its position: `line 3: unknown identifier `foo``. */
export function diagnosticHeadline(d: YaraDiagnostic): string {
  const head = d.message.split('\n')[0]!.replace(/^(?:error|warning)\[[A-Za-z0-9_]+\]:\s*/, '');
  return d.line === null ? head : `line ${d.line}: ${head}`;
}

export function sizeRefusal(bytes: number): string | null {
  if (bytes <= MAX_YARA_SOURCE_BYTES) return null;
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  return `the rule file is ${mb(bytes)} MB, over the ${mb(MAX_YARA_SOURCE_BYTES)} MB limit; split it into smaller files`;
}

/** Compiles a source only to see whether it compiles: the compiler's first error is the reason. */
export function checkYaraSource(source: string): YaraCompileCheck {
  const tooLarge = sizeRefusal(Buffer.byteLength(source, 'utf8'));
  if (tooLarge) return { ok: false, reason: tooLarge, errors: [], warnings: [] };
  return checkFromDiagnostics(validate(source, compilerOptions()));
}

type RawDiagnostic = { code: string; message: string; line?: number; column?: number };

/** The check a compiler's errors and warnings give (here or from the compiling thread). */
export function checkFromDiagnostics(result: { errors: RawDiagnostic[]; warnings: RawDiagnostic[] }): YaraCompileCheck {
  const warnings = result.warnings.map(diagnostic);
  if (result.errors.length === 0) return { ok: true, warnings };
  const errors = result.errors.map(diagnostic);
  return { ok: false, reason: diagnosticHeadline(errors[0]!), errors, warnings };
}
