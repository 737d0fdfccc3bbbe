export type Token = { text: string; kind: "keyword" | "string" | "comment" | "number" | "plain" };

const KEYWORDS =
  /^(?:async|await|break|case|catch|const|continue|default|do|else|false|finally|for|function|if|in|instanceof|let|new|null|of|return|switch|this|throw|true|try|typeof|undefined|var|while)$/;
const PATTERN =
  /(\/\/[^\n]*|\/\*[\s\S]*?\*\/)|("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|(\b\d+(?:\.\d+)?\b)|([A-Za-z_$][\w$]*)/g;

/** Splits JavaScript into tokens for colouring: comments, strings, numbers and keywords; the rest stays plain. */
export function highlightJs(code: string): Token[] {
  const tokens: Token[] = [];
  let last = 0;
  for (const match of code.matchAll(PATTERN)) {
    const index = match.index ?? 0;
    if (index > last) tokens.push({ text: code.slice(last, index), kind: "plain" });
    const [text, comment, string, number, word] = match;
    const kind = comment
      ? "comment"
      : string
        ? "string"
        : number
          ? "number"
          : word && KEYWORDS.test(word)
            ? "keyword"
            : "plain";
    tokens.push({ text, kind });
    last = index + text.length;
  }
  if (last < code.length) tokens.push({ text: code.slice(last), kind: "plain" });
  return tokens;
}
