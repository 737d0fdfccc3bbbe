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
  // Where and what to check for each kind of failure, without the provider's words.
  it.each<[string, number | undefined, string | RegExp]>([
    [
      "a refused key (HTTP 401)",
      401,
      "The model server at llm.local:11434 refused the API key (HTTP 401). Check OPENAI_API_KEY.",
    ],
    ["a missing model (HTTP 404)", 404, /has no model "llama3" \(HTTP 404\)/],
    ["a rate limit (HTTP 429)", 429, /limiting requests/],
    ["a server failure (HTTP 503)", 503, /failed \(HTTP 503\)/],
    ["a rejected request (HTTP 400)", 400, /rejected the request \(HTTP 400\)/],
    ["a server out of reach (no HTTP answer)", undefined, /Could not reach the model server/],
  ])("describes %s", (_failure, status, description) => {
    expect(describeModelError(apiError(status), model)).toEqual(
      typeof description === "string" ? description : expect.stringMatching(description),
    );
  });

  it("describes the last failure of retries, at OpenAI when no server is set", () => {
    expect(
      describeModelError(
        new RetryError({ message: "x", reason: "maxRetriesExceeded", errors: [apiError(500)] }),
        {
          name: "gpt",
        },
      ),
    ).toBe("The model server at OpenAI failed (HTTP 500). Try again, or check the server.");
  });

  it("describes any other error as a model that could not answer", () => {
    expect(describeModelError(new Error("boom"), model)).toBe(
      "The model could not answer. Check the model settings, or try again.",
    );
  });

  it.each([
    ["HTTP 401", 401],
    ["HTTP 404", 404],
    ["HTTP 429", 429],
    ["HTTP 500", 500],
    ["no HTTP answer", undefined],
  ])("never repeats the provider's words (%s)", (_answer, status) => {
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
