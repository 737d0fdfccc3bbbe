import { z } from "zod";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { idArg, textArg } from "@/lib/http/action-args";
import { apiRoute } from "@/lib/http/api-route";
import { parseJsonField } from "@/lib/http/json-field";
import { otherMethods } from "@/lib/http/other-methods";
import { readJsonBody } from "@/lib/http/read-json";
import { testRunCapability } from "@/lib/tools/capability-test-run";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

const bodySchema = z
  .object({
    draft: z.strictObject(
      {
        id: idArg.nullable(),
        namespace: textArg,
        action: textArg,
        description: textArg,
        parametersSchema: textArg,
        // Absent or blank: the draft declares no output schema.
        outputSchema: textArg.optional(),
        code: textArg,
      },
      { error: "must be the capability as the editor shows it" },
    ),
    argsText: textArg,
  })
  .strict();

/**
 * The capability editor's test run of the code as it stands. A route rather than a server action, so the
 * browser can cancel it: a cancelled request stops the sandbox run and every call it made.
 */
export const POST = apiRoute("POST /api/capabilities/test-run", async (request, { db }) => {
  const ctx = await requireSignedInUser();
  const { draft, argsText } = parseInput(bodySchema, await readJsonBody(request));
  const args = parseJsonField(argsText, "args", "The arguments are not valid JSON.") ?? {};
  const parametersSchema = parseJsonField(
    draft.parametersSchema,
    "parametersSchema",
    "The parameters schema is not valid JSON.",
  );
  const outputSchema =
    parseJsonField(draft.outputSchema ?? "", "outputSchema", "The output schema is not valid JSON.") ?? null;
  const run = await testRunCapability(
    db,
    ctx,
    { ...draft, parametersSchema, outputSchema, args },
    { signal: request.signal },
  );
  return Response.json({ run });
});

export const { DELETE, GET, HEAD, OPTIONS, PATCH, PUT } = otherMethods("POST");
