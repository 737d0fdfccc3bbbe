import { extractText, getDocumentProxy } from "unpdf";
import { ValidationError } from "@/lib/errors";
import type { FileKind } from "./file-types";
import { withinBudget } from "./tool-result-budget";

/** A PDF's text, page after page; a PDF that cannot be read is the person's file to fix, so a 400. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  try {
    // pdf.js takes the buffer over; a copy keeps the caller's bytes whole.
    const document = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
    const { text } = await extractText(document, { mergePages: true });
    await document.destroy();
    return text;
  } catch {
    throw new ValidationError("That PDF could not be read: it may be damaged or protected by a password.");
  }
}

/**
 * What the model reads of a text file or PDF: its text, cut to the budget (as tool results are); null for images,
 * which go to the model as images.
 */
export async function extractFileText(
  kind: FileKind,
  bytes: Uint8Array,
  maxChars: number,
): Promise<string | null> {
  if (kind === "image") return null;
  const text = kind === "pdf" ? await pdfText(bytes) : new TextDecoder("utf-8").decode(bytes);
  return withinBudget(text, maxChars);
}
