import { expect, newAccount, test } from "./fixtures/signed-in";

test.describe
  .serial("REST API with a real key (seed 002)", () => {
    // The first test's organization, whose knowledge and key the others use.
    test.use({ account: newAccount() });
    let key = "";
    const auth = () => ({ Authorization: `Bearer ${key}` });

    test("an admin adds knowledge and creates a key in the app", async ({ page, createApiKey }) => {
      await page.goto("/knowledge");
      await page.getByLabel("Name").fill("router-1");
      await page.getByLabel("Knowledge", { exact: true }).fill("Edge router in Frankfurt.");
      await page.getByLabel("Metadata (JSON, optional)").fill('{"site": "fra"}');
      await page.getByRole("button", { name: "Add node" }).click();
      await expect(page.getByTestId("knowledge-row")).toHaveCount(1);

      key = await createApiKey("Integration tests");
      await page.reload();
      await expect(page.getByTestId("api-key-row")).toContainText("Integration tests");
      await expect(page.getByText(key)).toHaveCount(0);
    });

    test("GET /api/mcp/tools lists every tool with name, description and JSON Schema parameters", async ({
      request,
    }) => {
      const response = await request.get("/api/mcp/tools", { headers: auth() });
      expect(response.status()).toBe(200);
      const { tools } = (await response.json()) as {
        tools: { name: string; description: string; parameters: { type: string } }[];
      };
      const retriever = tools.find((tool) => tool.name === "node_knowledge_retriever");
      expect(retriever?.description).toBeTruthy();
      expect(retriever?.parameters).toMatchObject({ type: "object", required: ["node_names"] });
    });

    test("POST /api/mcp/invoke runs node_knowledge_retriever, with metadata only when asked", async ({
      request,
    }) => {
      const plain = await request.post("/api/mcp/invoke", {
        headers: auth(),
        data: { tool_name: "node_knowledge_retriever", params: { node_names: ["router-1", "nope"] } },
      });
      expect(plain.status()).toBe(200);
      expect(await plain.json()).toEqual({
        success: true,
        total_nodes: 2,
        results: [
          { node_name: "router-1", found: true, knowledge: "Edge router in Frankfurt." },
          { node_name: "nope", found: false, knowledge: null },
        ],
      });
      const withMeta = await request.post("/api/mcp/invoke", {
        headers: auth(),
        data: {
          tool_name: "node_knowledge_retriever",
          params: { node_names: ["router-1"], include_metadata: true },
        },
      });
      expect((await withMeta.json()).results[0].metadata).toEqual({ site: "fra" });
    });

    test("bad requests get clear 4xx answers", async ({ request }) => {
      const post = (data: unknown, headers: Record<string, string> = {}) =>
        request.post("/api/mcp/invoke", { headers: { ...auth(), ...headers }, data: data as object });
      const unknown = await post({ tool_name: "no_such_tool", params: {} });
      expect(unknown.status()).toBe(400);
      expect((await unknown.json()).error).toBe("unknown tool");

      const missing = await post({ tool_name: "node_knowledge_retriever", params: {} });
      expect(missing.status()).toBe(400);
      expect((await missing.json()).error).toBe("node_names is required");

      const wrongType = await post({ tool_name: "node_knowledge_retriever", params: "yes" });
      expect(wrongType.status()).toBe(400);
      expect((await wrongType.json()).fields).toHaveProperty("params");

      const notJson = await request.post("/api/mcp/invoke", {
        headers: { ...auth(), "content-type": "application/json" },
        data: Buffer.from("{ not json"),
      });
      expect(notJson.status()).toBe(400);
      expect((await notJson.json()).error).toMatch(/not valid JSON/);

      const wrongContentType = await request.post("/api/mcp/invoke", {
        headers: { ...auth(), "content-type": "text/plain" },
        data: Buffer.from("hello"),
      });
      expect(wrongContentType.status()).toBe(415);

      const notObject = await request.post("/api/mcp/invoke", {
        headers: { ...auth(), "content-type": "application/json" },
        data: Buffer.from('"just a string"'),
      });
      expect(notObject.status()).toBe(400);
      expect((await notObject.json()).error).toMatch(/JSON object/);

      const big = await post({
        tool_name: "node_knowledge_retriever",
        params: { node_names: ["x".repeat(2 * 1024 * 1024)] },
      });
      expect(big.status()).toBe(413);
    });

    test("no key, a wrong key, and a revoked key get 401", async ({ page, request, signedIn: _ }) => {
      expect((await request.get("/api/mcp/tools")).status()).toBe(401);
      expect(
        (await request.get("/api/mcp/tools", { headers: { Authorization: "Bearer sb_wrong" } })).status(),
      ).toBe(401);

      await page.goto("/settings/api-keys");
      await page
        .getByTestId("api-key-row")
        .filter({ hasText: "Integration tests" })
        .getByRole("button", { name: "Revoke" })
        .click();
      await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
      await expect(page.getByTestId("api-key-row").filter({ hasText: "Integration tests" })).toContainText(
        "Revoked",
      );

      const revoked = await request.get("/api/mcp/tools", { headers: auth() });
      expect(revoked.status()).toBe(401);
      expect((await revoked.json()).error).toMatch(/revoked/);
    });
  });
