import { describe, expect, it } from "vitest";
import { loneTaskCall, taskCallAnswer } from "@/lib/gateway/sessions/task-call-answer";

const call = (params: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 7, method: "tools/call", params });

describe("a lone task-augmented tools/call", () => {
  it("is told apart from a plain call, a batch and another method", () => {
    expect(loneTaskCall(call({ name: "echo", arguments: {}, task: { ttl: 1000 } }))).toEqual({
      id: 7,
      params: { name: "echo", arguments: {}, task: { ttl: 1000 } },
    });
    expect(loneTaskCall(call({ name: "echo", arguments: {} }))).toBeUndefined();
    expect(loneTaskCall([call({ name: "echo", task: {} })])).toBeUndefined();
    expect(loneTaskCall({ ...call({ name: "echo", task: {} }), method: "prompts/get" })).toBeUndefined();
    expect(loneTaskCall(undefined)).toBeUndefined();
  });

  it("leaves invalid params to the SDK's server, which says what is wrong", () => {
    expect(loneTaskCall(call({ task: {} }))).toBeUndefined();
    expect(loneTaskCall({ method: "tools/call", params: { name: "echo", task: {} } })).toBeUndefined();
  });

  it("answers with the task started, or with the error that kept it from starting", async () => {
    const started = await taskCallAnswer(3, async () => ({ task: { taskId: "t", status: "working" } }));
    expect(started.headers.get("content-type")).toBe("application/json");
    expect(await started.json()).toEqual({
      result: { task: { taskId: "t", status: "working" } },
      jsonrpc: "2.0",
      id: 3,
    });
    const failed = await taskCallAnswer(4, async () => {
      throw new Error("database down at 10.0.0.1");
    });
    const body = (await failed.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).not.toContain("10.0.0.1");
  });
});
