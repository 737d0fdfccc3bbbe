import { z } from "zod";
import { fileReferenceSchema } from "./file-attachment-schema";
import { modelNameSchema } from "./model-name";
import { attachmentReferenceSchema } from "./resource-attachments";

// What a person types never holds a NUL character, and PostgreSQL could not store it: refused here, with a 400.
const hasNoNul = (text: string) => !text.includes("\u0000");
const NUL_MESSAGE = "A message cannot contain the NUL character (\\u0000); remove it and send again.";

/** What the browser may say in a turn: never the history, never what the assistant or a tool said. */
const userPartSchema = z.discriminatedUnion(
  "type",
  [
    z.object({
      type: z.literal("text"),
      text: z
        .string()
        .max(100_000, { error: "A message is at most 100,000 characters." })
        .refine(hasNoNul, { error: NUL_MESSAGE }),
    }),
    z.object({
      type: z.literal("data-resource"),
      id: z.string().max(200).optional(),
      // Which resource, never its content: the server reads it again, so an attachment cannot be forged.
      data: attachmentReferenceSchema,
    }),
    z.object({
      type: z.literal("data-file"),
      id: z.string().max(200).optional(),
      // A file uploaded first to the conversation's files route, named by id: its bytes never come in the turn.
      data: fileReferenceSchema,
    }),
  ],
  { error: "A message holds text, attached resources and attached files only." },
);

/** The id of a stored message the turn branches from; the server checks the conversation holds it. */
const branchPointSchema = z
  .string()
  .min(1, { error: "Name a message of this conversation by its id." })
  .max(200, { error: "Name a message of this conversation by its id." });

export const chatTurnRequestSchema = z
  .object({
    id: z.string({ error: "id (the conversation) is required" }).min(1),
    /** A new message of the user. */
    message: z
      .object({
        id: z
          .string()
          .regex(/^[\w-]{1,100}$/, { error: "message.id must be 1 to 100 letters, digits, _ or -." }),
        role: z.literal("user", { error: "Only the user's own message can be sent." }),
        parts: z.array(userPartSchema).min(1, { error: "The message is empty." }).max(50),
      })
      .optional(),
    /** With message: the user message it is a new version of (edited and sent again); the old one stays a branch. */
    edit: branchPointSchema.optional(),
    /** The user's answers to tool calls waiting for approval in the last assistant message. */
    approvals: z
      .array(
        z.object({
          id: z.string().min(1).max(200),
          approved: z.boolean(),
          reason: z.string().max(1_000).refine(hasNoNul, { error: NUL_MESSAGE }).optional(),
        }),
      )
      .min(1)
      .max(100)
      .optional(),
    /** The model the user chose in the header (null: the agent's); the server checks the organization allows it. */
    model: modelNameSchema.nullable().optional(),
    /** Answer again, as a new version: true for the last answer, or the id of the answer to regenerate. */
    regenerate: z
      .union([z.literal(true), branchPointSchema], {
        error: "regenerate is true (the last answer) or the id of the answer to give again.",
      })
      .optional(),
  })
  .strict()
  .refine((body) => body.edit === undefined || body.message !== undefined, {
    error: "edit names the message that message replaces: send it with message.",
  })
  .refine((body) => [body.message, body.approvals, body.regenerate].filter(Boolean).length === 1, {
    error: "Send exactly one of message, approvals or regenerate.",
  });

export type ChatTurnRequest = z.infer<typeof chatTurnRequestSchema>;
export type Approval = NonNullable<ChatTurnRequest["approvals"]>[number];
