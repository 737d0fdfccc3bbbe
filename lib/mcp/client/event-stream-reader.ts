/** One event of an event stream: its type ("" when none was named), its data lines joined, and its id if it had one. */
export interface StreamEvent {
  type: string;
  data: string | undefined;
  id: string | undefined;
}

/**
 * Reads an event stream's lines as they come (LF, CRLF or CR, split anywhere between chunks) and hands on each
 * event once its blank line arrives. A reader sets `stopped` once it has seen enough: the rest is not looked at.
 */
export class EventStreamReader {
  stopped = false;
  private decoder = new TextDecoder();
  private rest = "";
  private scanned = 0;
  private data: string | undefined;
  private type = "";
  private id: string | undefined;

  constructor(
    private readonly onEvent: (event: StreamEvent) => void,
    private readonly onRetry: () => void = () => {},
  ) {}

  /** The next bytes, or undefined at the end of the stream. */
  push(bytes: Uint8Array | undefined): void {
    this.rest += bytes ? this.decoder.decode(bytes, { stream: true }) : this.decoder.decode();
    let start = 0;
    // A long line comes in many chunks: what was already looked at is not looked at again.
    let i = this.scanned;
    for (; i < this.rest.length && !this.stopped; i++) {
      const char = this.rest[i];
      if (char !== "\n" && char !== "\r") continue;
      // A CR at the end of what came so far may be the first half of a CRLF.
      if (char === "\r" && i === this.rest.length - 1 && bytes) break;
      this.line(this.rest.slice(start, i));
      if (char === "\r" && this.rest[i + 1] === "\n") i++;
      start = i + 1;
    }
    this.rest = this.rest.slice(start);
    this.scanned = i - start;
  }

  private line(line: string): void {
    if (line === "") {
      const event = { type: this.type, data: this.data, id: this.id };
      this.data = undefined;
      this.type = "";
      this.id = undefined;
      this.onEvent(event);
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(line[colon + 1] === " " ? colon + 2 : colon + 1);
    if (field === "data") this.data = this.data === undefined ? value : `${this.data}\n${value}`;
    else if (field === "event") this.type = value;
    else if (field === "id") this.id = value;
    else if (field === "retry") this.onRetry();
  }
}
