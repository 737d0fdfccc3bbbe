import { z } from "zod";
import { invalidParams } from "./mcp-errors";

const cursorSchema = z.object({ list: z.string(), offset: z.number().int().min(0) });

/** An opaque cursor: which list, and where the next page starts. */
function cursorFor(list: string, offset: number): string {
  return Buffer.from(JSON.stringify({ list, offset })).toString("base64url");
}

function offsetOf(list: string, cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  let parsed: z.infer<typeof cursorSchema> | undefined;
  try {
    parsed = cursorSchema.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
  } catch {
    parsed = undefined;
  }
  if (!parsed || parsed.list !== list)
    throw invalidParams(`Invalid cursor: send the nextCursor of the previous ${list} page as it came.`);
  return parsed.offset;
}

/**
 * One page of a list, with the cursor to the next when there is more. A page size of 0 answers the whole list.
 * (A list that changes between pages is announced with list_changed; the client then lists again.)
 */
export function pageOf<T>(
  list: string,
  items: T[],
  cursor: string | undefined,
  pageSize: number,
): { items: T[]; nextCursor?: string } {
  const offset = offsetOf(list, cursor);
  if (pageSize <= 0) return { items: offset === 0 ? items : items.slice(offset) };
  const end = offset + pageSize;
  return {
    items: items.slice(offset, end),
    ...(end < items.length ? { nextCursor: cursorFor(list, end) } : {}),
  };
}
