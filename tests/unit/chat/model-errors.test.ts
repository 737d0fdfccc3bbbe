import { createOpenAI } from "@ai-sdk/openai";
import { APICallError, generateText, RetryError } from "ai";
import { describe, expect, it } from "vitest";
import { describeModelError } from "@/lib/chat/model-errors";

const apiError = (statusCode?: number) =>
  new APICallError({
    message: "Incorrect API key provided: sk-secret",
    url: "http://llm.local:11434/v1/chat/completions",
    requestBodyValues: {},
    statusCode,
  });
const model = { name: "llama3", baseURL: "http://llm.local:11434/v1" };

describe("model errors in the chat", () => {
  it("says where and what to check for each kind of failure, without the provider's words", () => {
    expect(describeModelError(apiError(401), model)).toBe(
      "The model server at llm.local:11434 refused the API key (HTTP 401). Check OPENAI_API_KEY.",
    );
    expect(describeModelError(apiError(404), model)).toMatch(/has no model "llama3" \(HTTP 404\)/);
    expect(describeModelError(apiError(429), model)).toMatch(/limiting requests/);
    expect(describeModelError(apiError(503), model)).toMatch(/failed \(HTTP 503\)/);
    expect(describeModelError(apiError(400), model)).toMatch(/rejected the request \(HTTP 400\)/);
    expect(describeModelError(apiError(undefined), model)).toMatch(/Could not reach the model server/);
    expect(
      describeModelError(
        new RetryError({ message: "x", reason: "maxRetriesExceeded", errors: [apiError(500)] }),
        {
          name: "gpt",
        },
      ),
    ).toBe("The model server at OpenAI failed (HTTP 500). Try again, or check the server.");
    expect(describeModelError(new Error("boom"), model)).toBe(
      "The model could not answer. Check the model settings, or try again.",
    );
    for (const status of [401, 404, 429, 500, undefined])
      expect(describeModelError(apiError(status), model)).not.toContain("sk-secret");
  });

  it("recognises a model server that is not running, through the real provider", async () => {
    const provider = createOpenAI({ apiKey: "x", baseURL: "http://127.0.0.1:9/v1" });
    const error = await generateText({ model: provider.chat("m"), prompt: "hi", maxRetries: 0 }).catch(
      (e: unknown) => e,
    );
    expect(describeModelError(error, { name: "m", baseURL: "http://127.0.0.1:9/v1" })).toBe(
      "Could not reach the model server at 127.0.0.1:9. Check OPENAI_BASE_URL and that the server is running.",
    );
  });
});
