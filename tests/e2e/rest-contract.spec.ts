import type { APIRequestContext } from "@playwright/test";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import fc from "fast-check";
import { arbitraryOf, type JsonSchema } from "../contract/json-schema-arbitrary";
import { expect, newAccount, test } from "./fixtures/signed-in";
import { IntegrationsPage } from "./pages/integrations";

// A property-based contract test of the REST API against its own OpenAPI document, in the manner of Schemathesis:
// every documented operation gets requests generated from the document's schemas, and each answer must keep the
// document's word. CONTRACT_SEED replays a run; fast-check prints the seed and the shrunk case of a failure.
test.use({ account: newAccount() });

const SEED = Number(process.env.CONTRACT_SEED ?? 20_261_128);
const RUNS = Number(process.env.CONTRACT_RUNS ?? 150);
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
// The tools whose calls are generated: the built-ins, the capability, and server-everything's tools that answer at
// once (its others run for as long as their arguments say, fetch URLs, or switch the server's own behaviour).
const FUZZED_TOOLS = new Set([
  "knowledge_search",
  "mcp__contract__double",
  "node_knowledge_retriever",
  "everything_echo",
  "everything_get-sum",
  "everything_get-tiny-image",
  "everything_get-annotated-message",
  "everything_get-structured-content",
  "everything_get-resource-links",
  "everything_get-resource-reference",
  "everything_trigger-elicitation-request",
]);

interface Operation {
  path: string;
  method: string;
  requestBody?: { required?: boolean; content?: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Omit<Operation, "path" | "method">>>;
}

function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => (METHODS as readonly string[]).includes(method))
      .map(([method, operation]) => ({ path, method, ...operation })),
  );
}

/** How a case names its operation, so a failure prints short. */
const labelOf = ({ method, path }: Pick<Operation, "method" | "path">) => `${method.toUpperCase()} ${path}`;

const pointer = (...parts: string[]) =>
  `#/${parts.map((part) => part.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`;

/** The checks of one answer against the document: a declared status, a body of its declared schema. */
function answerProblem(
  operation: Operation,
  status: number,
  body: unknown,
  schemaAt: (ref: string) => ValidateFunction,
  ajv: Ajv2020,
): string | null {
  const declared = operation.responses[String(status)] ?? operation.responses.default;
  if (!declared) return `status ${status} is not among ${Object.keys(operation.responses).join(", ")}`;
  const key = operation.responses[String(status)] ? String(status) : "default";
  if (!declared.content?.["application/json"]) return null;
  const validate = schemaAt(
    pointer(
      "paths",
      operation.path,
      operation.method,
      "responses",
      key,
      "content",
      "application/json",
      "schema",
    ),
  );
  if (!validate(body)) return `the ${status} body breaks its schema: ${ajv.errorsText(validate.errors)}`;
  return null;
}

async function answerOf(
  request: APIRequestContext,
  url: string,
  method: string,
  headers: Record<string, string>,
  data?: unknown,
) {
  const response = await request.fetch(url, {
    method: method.toUpperCase(),
    headers,
    ...(data === undefined ? {} : { data: Buffer.from(JSON.stringify(data)) }),
    failOnStatusCode: false,
    maxRedirects: 0,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: the checks say so where a JSON body is declared.
  }
  return { status: response.status(), headers: response.headers(), body, text };
}

test("generated requests get the answers the OpenAPI document promises", async ({
  page,
  request,
  createApiKey,
}) => {
  test.setTimeout(180_000);
  // Besides the built-ins, a capability that declares an output schema: the document describes its result too.
  await page.goto("/capabilities/new");
  const form = page.getByRole("form", { name: "Capability" });
  await form.getByLabel("Namespace").fill("contract");
  await form.getByLabel("Action").fill("double");
  await form
    .getByLabel("Parameters (JSON Schema)")
    .fill(
      '{"type": "object", "properties": {"n": {"type": "integer", "minimum": -1000, "maximum": 1000}}, "required": ["n"]}',
    );
  await form
    .getByLabel("Output schema (JSON Schema, optional)")
    .fill('{"type": "object", "properties": {"doubled": {"type": "integer"}}, "required": ["doubled"]}');
  await form.getByLabel("Code").fill("return { doubled: args.n * 2 };");
  await form.getByLabel("Read-only").check();
  await form.getByRole("button", { name: "Create capability" }).click();
  await expect(page).toHaveURL(/\/capabilities$/);
  // And a real MCP server's tools, with the schemas it wrote.
  await new IntegrationsPage(page).addFromCatalog("everything");
  const key = await createApiKey("contract");
  const auth = { authorization: `Bearer ${key}` };
  const document = (await (
    await request.get("/api/openapi.json", { headers: auth })
  ).json()) as OpenApiDocument;
  expect(document.openapi).toBe("3.1.0");

  // The whole document as one schema, so its references resolve as they are written.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ ...document, $id: "https://contract.test/openapi.json" });
  const schemaAt = (ref: string) => {
    const validate = ajv.getSchema(`https://contract.test/openapi.json${ref}`);
    if (!validate) throw new Error(`no schema at ${ref}`);
    return validate;
  };

  const operations = operationsOf(document);
  const tools = (await (await request.get("/api/mcp/tools", { headers: auth })).json()) as {
    tools: { name: string }[];
  };
  const names = tools.tools.map((tool) => tool.name);
  for (const name of FUZZED_TOOLS) expect(names).toContain(name);
  expect(operations.map(labelOf)).toEqual(["GET /api/mcp/tools", "POST /api/mcp/invoke"]);
  // The document describes a call of every listed tool.
  const invoke = operations.find((operation) => operation.method === "post");
  const invokeSchema = invoke?.requestBody?.content?.["application/json"]?.schema as {
    oneOf: { title?: string }[];
  };
  expect(invokeSchema.oneOf.map((variant) => variant.title).sort()).toEqual([...names].sort());

  // Positive data: each operation with bodies valid by its request schema (the validator has the last word).
  const cases = operations.map((operation) => {
    const schema = operation.requestBody?.content?.["application/json"]?.schema;
    const request = labelOf(operation);
    if (!schema) return fc.constant({ request, data: undefined as unknown });
    const valid = schemaAt(
      pointer(
        "paths",
        operation.path,
        operation.method,
        "requestBody",
        "content",
        "application/json",
        "schema",
      ),
    );
    const generated =
      operation === invoke
        ? {
            ...invokeSchema,
            oneOf: invokeSchema.oneOf.filter((variant) => FUZZED_TOOLS.has(variant.title ?? "")),
          }
        : schema;
    return arbitraryOf(generated, document)
      .filter((data) => valid(data) === true)
      .map((data) => ({ request, data }));
  });
  const statuses = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(fc.oneof(...cases), async ({ request: label, data }) => {
      const operation = operations.find((candidate) => labelOf(candidate) === label) as Operation;
      const headers: Record<string, string> = { ...auth };
      if (data !== undefined) headers["content-type"] = "application/json";
      const answer = await answerOf(request, operation.path, operation.method, headers, data);
      statuses.set(`${label} ${answer.status}`, (statuses.get(`${label} ${answer.status}`) ?? 0) + 1);
      // Not a server error, but for the documented failure of a tool itself.
      if (answer.status >= 500) {
        expect(answer.status, `${label}: ${answer.text.slice(0, 300)}`).toBe(500);
        expect(schemaAt(pointer("components", "schemas", "ToolFailure"))(answer.body), answer.text).toBe(
          true,
        );
      }
      // Positive data acceptance: what the document calls valid is never refused as malformed.
      expect(answer.status, `${label} refused valid data: ${answer.text.slice(0, 300)}`).not.toBe(400);
      expect(
        answerProblem(operation, answer.status, answer.body, schemaAt, ajv),
        answer.text.slice(0, 300),
      ).toBeNull();
    }),
    { seed: SEED, numRuns: RUNS },
  );
  // Every operation was called, and answered successfully at least once.
  for (const { method, path } of operations)
    expect(
      [...statuses.keys()].some((entry) => entry === `${labelOf({ method, path })} 200`),
      [...statuses.entries()].join("; "),
    ).toBe(true);

  // Unsupported methods: 405 with an Allow that lists what the document does offer there.
  const paths = Object.keys(document.paths);
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...paths), fc.constantFrom(...METHODS), async (path, method) => {
      const documented = Object.keys(document.paths[path] ?? {});
      fc.pre(!documented.includes(method) && method !== "head" && method !== "options");
      const answer = await answerOf(request, path, method, auth);
      expect(answer.status, `${method.toUpperCase()} ${path}: ${answer.text.slice(0, 300)}`).toBe(405);
      const allow = (answer.headers.allow ?? "").split(",").map((entry) => entry.trim().toLowerCase());
      for (const offered of documented) expect(allow, `${method.toUpperCase()} ${path}`).toContain(offered);
    }),
    { seed: SEED, numRuns: 40 },
  );
});
