/** Whether text holds a C0 control character or DEL (NUL, a bare carriage return, an escape sequence…). */
export function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Whether text holds NUL, which Postgres cannot store in `text` or `jsonb` (so a query with it fails). */
export function hasNul(text: string): boolean {
  return text.includes("\u0000");
}
