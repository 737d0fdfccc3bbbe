import type { CodeOptions } from "ajv";
import { RE2JS } from "re2js";

/**
 * JSON Schema `pattern`s run in linear time: tenants write them (capability parameters, connected servers'
 * tools), and a backtracking engine lets one pattern such as `^(a+)+$` stall the whole server on a short argument.
 * Patterns are JavaScript regular expressions; they are translated to RE2 syntax and run by re2js.
 */

/** A pattern this server will not run: not a regular expression, or one RE2 cannot run in linear time. */
export class UncheckablePatternError extends Error {
  constructor(
    readonly pattern: string,
    readonly reason: string,
    readonly invalid: boolean,
  ) {
    const shown = pattern.length > 200 ? `${pattern.slice(0, 200)}…` : pattern;
    super(
      invalid
        ? `the pattern "${shown}" is not a valid regular expression (${reason})`
        : `the pattern "${shown}" cannot be checked safely: ${reason}; this server checks patterns in linear time, without lookaheads or backreferences`,
    );
    this.name = "UncheckablePatternError";
  }
}

// What JavaScript's \s matches (WhiteSpace and LineTerminator); RE2's \s is ASCII only. \S is the rest.
const SPACE =
  "\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}";
const NOT_SPACE =
  "\\x{0}-\\x{8}\\x{e}-\\x{1f}\\x{21}-\\x{9f}\\x{a1}-\\x{167f}\\x{1681}-\\x{1fff}\\x{200b}-\\x{2027}" +
  "\\x{202a}-\\x{202e}\\x{2030}-\\x{205e}\\x{2060}-\\x{2fff}\\x{3001}-\\x{fefe}\\x{ff00}-\\x{10ffff}";
// JavaScript's `.` stops at every line terminator; RE2's only at \n.
const DOT = "[^\\n\\r\\x{2028}\\x{2029}]";

/**
 * Rewrites what RE2 would read differently from JavaScript (`.`, `\s`, `\S`), and refuses what RE2 cannot run
 * (lookaheads, backreferences) with a reason. The pattern is known to be valid JavaScript.
 */
function toRe2Meaning(pattern: string, dotAll: boolean): string {
  let out = "";
  let inClass = false;
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i] as string;
    if (ch === "\\") {
      const next = pattern[i + 1] ?? "";
      if (next === "s" || next === "S") {
        const set = next === "s" ? SPACE : NOT_SPACE;
        out += inClass ? set : `[${set}]`;
      } else if (next === "k" || (next >= "1" && next <= "9")) {
        throw new UncheckablePatternError(pattern, "it uses a backreference", false);
      } else {
        out += ch + next;
      }
      i += 2;
    } else if (inClass) {
      if (ch === "]") inClass = false;
      out += ch;
      i++;
    } else if (ch === "[") {
      // In JavaScript, a `]` right after `[` or `[^` closes the class (`[]` matches nothing, `[^]` anything).
      const head = pattern[i + 1] === "^" ? "[^" : "[";
      i += head.length;
      if (pattern[i] === "]") {
        out += `${head}]`;
        i++;
      } else {
        out += head;
        inClass = true;
      }
    } else if (ch === "." && !dotAll) {
      out += DOT;
      i++;
    } else {
      if (ch === "(" && pattern[i + 1] === "?" && (pattern[i + 2] === "=" || pattern[i + 2] === "!"))
        throw new UncheckablePatternError(pattern, "it uses a lookahead", false);
      out += ch;
      i++;
    }
  }
  return out;
}

function isJavaScriptRegExp(pattern: string, flags: string): string | null {
  try {
    // Only parsed, never run: V8 parses a pattern when it is constructed and compiles it on first use.
    new RegExp(pattern, flags);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message.replace(/^Invalid regular expression: /, "") : "invalid";
  }
}

function re2Flags(pattern: string, flags: string): number {
  let mask = RE2JS.LOOKBEHINDS;
  for (const flag of flags) {
    if (flag === "i") mask |= RE2JS.CASE_INSENSITIVE;
    else if (flag === "m") mask |= RE2JS.MULTILINE;
    else if (flag === "s") mask |= RE2JS.DOTALL;
    // RE2 always matches code points, as `u` does; g, y and d change nothing for a test.
    else if (flag === "v") throw new UncheckablePatternError(pattern, "the v flag is not supported", false);
  }
  return mask;
}

/**
 * Compiles a JavaScript pattern to a linear-time matcher, or throws UncheckablePatternError. `lenient` also takes
 * a pattern that is valid only without the `u` flag (`\-` outside a class, say), as servers often write them.
 */
export function compileLinearRegExp(pattern: string, flags = "", options: { lenient?: boolean } = {}): RE2JS {
  let problem = isJavaScriptRegExp(pattern, flags);
  if (problem && options.lenient && flags.includes("u"))
    problem = isJavaScriptRegExp(pattern, flags.replace("u", "")) && problem;
  if (problem) throw new UncheckablePatternError(pattern, problem, true);
  const mask = re2Flags(pattern, flags);
  const translated = RE2JS.translateRegExp(toRe2Meaning(pattern, flags.includes("s")));
  try {
    return RE2JS.compile(translated, mask);
  } catch (error) {
    const reason =
      error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : "unsupported";
    throw new UncheckablePatternError(pattern, reason, false);
  }
}

type RegExpEngine = NonNullable<CodeOptions["regExp"]>;

/** What ajv runs for a pattern; ajv shares compiled patterns by toString(), which names the pattern and flags. */
class LinearPattern {
  constructor(
    private readonly source: string,
    private readonly flags: string,
    private readonly matcher: RE2JS | UncheckablePatternError,
  ) {}

  test(input: string): boolean {
    if (this.matcher instanceof UncheckablePatternError) throw this.matcher;
    return this.matcher.test(input);
  }

  toString(): string {
    const uncheckable = this.matcher instanceof UncheckablePatternError ? "uncheckable:" : "";
    return `${uncheckable}/${this.source}/${this.flags}`;
  }
}

/**
 * ajv's `code.regExp` for validating arguments. A pattern that cannot be checked still compiles, and refuses
 * (throws UncheckablePatternError) only when an argument reaches it: neither skipped nor run by a backtracking engine.
 */
export const linearRegExpEngine: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    try {
      return new LinearPattern(pattern, flags, compileLinearRegExp(pattern, flags, { lenient: true }));
    } catch (error) {
      if (!(error instanceof UncheckablePatternError)) throw error;
      return new LinearPattern(pattern, flags, error);
    }
  },
  { code: "linearRegExpEngine" },
);

/** ajv's `code.regExp` for checking a schema as it is saved: a pattern that cannot be checked fails the compile. */
export const strictLinearRegExpEngine: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => new LinearPattern(pattern, flags, compileLinearRegExp(pattern, flags)),
  { code: "strictLinearRegExpEngine" },
);
