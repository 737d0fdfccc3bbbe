import { describe, expect, it } from "vitest";
import type { ChatFileContent } from "@/lib/chat/chat-files";
import { fileArgumentsOf, UnknownFileHandleError, withFilesResolved } from "@/lib/chat/files-for-tools";

const fileId = "0b6f4c1e-7a51-4a53-9a0e-2f1f6d5c7e11";
const file: ChatFileContent = {
  fileId,
  name: "Q3 report (final).txt",
  mediaType: "text/plain",
  size: 5,
  content: Buffer.from("hello"),
  text: "hello",
};
const files = new Map([[fileId, file]]);

describe("fileArgumentsOf", () => {
  it("finds the arguments that take files, one or a list, marked as MCP file inputs or as base64", () => {
    expect(
      fileArgumentsOf({
        type: "object",
        properties: {
          file: { type: "string", format: "uri", "x-mcp-file": {} },
          attachments: { type: "array", items: { type: "string", mcpFile: { accept: ["image/*"] } } },
          blob: { type: "string", contentEncoding: "base64" },
          title: { type: "string" },
          link: { type: "string", format: "uri" },
        },
      }),
    ).toEqual({ file: "data-uri", attachments: "data-uri", blob: "base64" });
  });

  it("finds none in a schema without properties or without file arguments", () => {
    expect(fileArgumentsOf({ type: "object" })).toBeUndefined();
    expect(fileArgumentsOf({ type: "object", properties: { q: { type: "string" } } })).toBeUndefined();
  });
});

describe("withFilesResolved", () => {
  it("puts the file in place of its handle, with its name percent-encoded in the data URI", () => {
    const resolved = withFilesResolved(
      {
        file: `chat-file:${fileId}`,
        attachments: [`chat-file:${fileId.toUpperCase()}`, "data:,x"],
        title: `chat-file:${fileId}`,
      },
      { file: "data-uri", attachments: "data-uri" },
      files,
    );
    expect(resolved).toEqual({
      file: "data:text/plain;name=Q3%20report%20(final).txt;base64,aGVsbG8=",
      attachments: ["data:text/plain;name=Q3%20report%20(final).txt;base64,aGVsbG8=", "data:,x"],
      // Only arguments that take files are read for handles.
      title: `chat-file:${fileId}`,
    });
    expect(withFilesResolved({ blob: `chat-file:${fileId}` }, { blob: "base64" }, files)).toEqual({
      blob: "aGVsbG8=",
    });
  });

  it("refuses the handle of a file the conversation does not have", () => {
    const other = "chat-file:11111111-2222-4333-8444-555555555555";
    expect(() => withFilesResolved({ file: other }, { file: "data-uri" }, files)).toThrow(
      UnknownFileHandleError,
    );
  });
});
