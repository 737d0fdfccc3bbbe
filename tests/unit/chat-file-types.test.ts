import { describe, expect, it } from "vitest";
import { cleanFileName } from "@/lib/chat/chat-files";
import { conversationMarkdown } from "@/lib/chat/conversation-export";
import { formatFileSize, sniffFileType } from "@/lib/chat/file-types";
import { elfBytes, makePdf, tinyPng } from "../fixtures/files/sample-files";

const bytes = (...values: (number | string)[]) =>
  Buffer.concat(values.map((v) => (typeof v === "string" ? Buffer.from(v, "latin1") : Buffer.from([v]))));

describe("reading a file's type from its bytes", () => {
  it("knows PNG, JPEG, GIF, WebP and PDF by their signatures", () => {
    expect(sniffFileType(tinyPng)).toEqual({ kind: "image", mediaType: "image/png" });
    expect(sniffFileType(bytes(0xff, 0xd8, 0xff, 0xe0, "JFIF"))).toEqual({
      kind: "image",
      mediaType: "image/jpeg",
    });
    expect(sniffFileType(bytes("GIF89a", 1, 0))).toEqual({ kind: "image", mediaType: "image/gif" });
    expect(sniffFileType(bytes("RIFF", 0, 0, 0, 0, "WEBPVP8 "))).toEqual({
      kind: "image",
      mediaType: "image/webp",
    });
    expect(sniffFileType(makePdf("hello"))).toEqual({ kind: "pdf", mediaType: "application/pdf" });
  });

  it("takes UTF-8 text with tabs and line breaks as text", () => {
    expect(sniffFileType(Buffer.from("name,city\r\nÅse,Bergen\t✓\n"))).toEqual({
      kind: "text",
      mediaType: "text/plain",
    });
  });

  it("refuses programs, a RIFF that is not WebP, NUL bytes, invalid UTF-8 and emptiness", () => {
    expect(sniffFileType(elfBytes)).toBeNull();
    expect(sniffFileType(bytes("RIFF", 0, 0, 0, 0, "WAVEfmt "))).toBeNull();
    expect(sniffFileType(bytes("text", 0, "more"))).toBeNull();
    expect(sniffFileType(bytes("caf", 0xe9))).toBeNull();
    expect(sniffFileType(Buffer.alloc(0))).toBeNull();
  });
});

describe("file names and sizes as shown", () => {
  it("keeps the last part of a path, without control characters, never empty", () => {
    expect(cleanFileName("C:\\Users\\me\\report.pdf")).toBe("report.pdf");
    expect(cleanFileName("../../etc/passwd")).toBe("passwd");
    expect(cleanFileName("bad\u0000\nname.txt")).toBe("badname.txt");
    expect(cleanFileName("  ")).toBe("file");
  });

  it("says bytes, KB or MB", () => {
    expect(formatFileSize(70)).toBe("70 B");
    expect(formatFileSize(4096)).toBe("4 KB");
    expect(formatFileSize(10_485_760)).toBe("10.0 MB");
  });
});

describe("an export", () => {
  it("names each attached file and resource on its message", () => {
    const markdown = conversationMarkdown(
      { title: "Files", createdAt: new Date(), updatedAt: new Date() } as never,
      [
        {
          id: "u1",
          role: "user",
          parts: [
            { type: "text", text: "Read these." },
            {
              type: "data-file",
              data: {
                fileId: crypto.randomUUID(),
                name: "report.pdf",
                mediaType: "application/pdf",
                size: 2048,
              },
            },
            { type: "data-resource", data: { name: "Readme", uri: "file:///readme.md" } },
          ],
        },
      ],
    );
    expect(markdown).toContain(
      "Read these.\n\n_Attached file: report.pdf (application/pdf, 2 KB)_\n\n_Attached resource: Readme (file:///readme.md)_",
    );
  });
});
