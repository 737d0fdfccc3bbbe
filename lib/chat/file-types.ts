/** What the chat accepts, read from a file's bytes: the browser's claimed type is never trusted. */
export type FileKind = "image" | "pdf" | "text";

export interface SniffedType {
  kind: FileKind;
  mediaType: string;
}

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, index) => bytes[at + index] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Text-like: valid UTF-8 without NUL or other control bytes than tab, line feed, form feed and carriage return. */
function isText(bytes: Uint8Array): boolean {
  for (const byte of bytes)
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The file's type from its first bytes (PNG, JPEG, GIF, WebP, PDF) or its being text; null for anything else. */
export function sniffFileType(bytes: Uint8Array): SniffedType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { kind: "image", mediaType: "image/png" };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { kind: "image", mediaType: "image/jpeg" };
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a")))
    return { kind: "image", mediaType: "image/gif" };
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8))
    return { kind: "image", mediaType: "image/webp" };
  if (startsWith(bytes, ascii("%PDF-"))) return { kind: "pdf", mediaType: "application/pdf" };
  if (bytes.length > 0 && isText(bytes)) return { kind: "text", mediaType: "text/plain" };
  return null;
}

/** The kind of a stored media type (as `sniffFileType` named it). */
export function kindOf(mediaType: string): FileKind {
  return mediaType.startsWith("image/") ? "image" : mediaType === "application/pdf" ? "pdf" : "text";
}

/** A size as people read it: bytes, KB or MB. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
