import { z } from "zod";

/** A model name as OpenAI-compatible servers spell them: `gpt-4o-mini`, `llama3.1:8b`, `org/model@v2`. */
export const modelNameSchema = z
  .string({ error: "A model is named by a string." })
  .trim()
  .min(1, { error: "Enter a model name." })
  .max(200, { error: "A model name is at most 200 characters." })
  .regex(/^[\w.:/@+-]+$/, { error: "A model name holds letters, digits and . : / @ + - _ only." });
